#!/bin/sh
gofmt -w .
