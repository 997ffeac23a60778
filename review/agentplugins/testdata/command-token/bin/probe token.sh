#!/bin/sh
echo probe
