package codex

import "vouch/model"

// codexSeen and claudeSeen name the clients in a sentence with the releases its rule was
// observed on: the first releases the native-plugin rules were recorded with and every
// modelled release after them, which the recorded answers show behave alike here. A rule
// keyed by version names the release it answers for instead.
var (
	codexSeen  = model.ClientAt(model.ClientCodex, model.Codex169)
	claudeSeen = model.ClientAt(model.ClientClaudeCode, model.ClaudeCode328)
)
