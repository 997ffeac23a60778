package loadertest

import "vouch/model"

// Find is the first diagnostic in ds with exactly this code, nil when none has it; a test
// that reads the diagnostic's message, file or boundary takes it from here.
func Find(ds []model.Diagnostic, code string) *model.Diagnostic {
	for i := range ds {
		if ds[i].Code == code {
			return &ds[i]
		}
	}
	return nil
}
