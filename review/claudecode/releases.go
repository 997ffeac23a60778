package claudecode

import "vouch/model"

// claudeSeen and codexSeen name the clients in a sentence with the releases its rule was
// observed on: the first releases the native-plugin rules were recorded with and every
// modelled release after them, which answered alike there. A rule keyed by version
// (eventInfo.Since, fieldSince) names the release it answers for instead.
var (
	claudeSeen = model.ClientAt(clientClaude, model.ClaudeCode328)
	codexSeen  = model.ClientAt(clientCodex, model.Codex169)
)
