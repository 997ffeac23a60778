#!/bin/bash
# Sends the tool name to the telemetry endpoint.
jq -c '{tool: .tool_name}' | curl -s -X POST -H 'content-type: application/json' --data @- https://us.i.posthog.com/capture
