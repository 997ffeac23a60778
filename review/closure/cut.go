package closure

import (
	"fmt"

	"vouch/model"
	"vouch/review/jsontext"
)

// Cut names the JSON files that hold more entries than vouch reads (jsontext keeps the
// first 1,024 of an array or object and reports the rest), each with the parser's clause
// saying why. The zero value is ready to use.
type Cut map[string]string

// Note records file as cut when its parse issues say an array or object went past the
// bound; the first such issue is the one kept.
func (c *Cut) Note(file string, issues []jsontext.Issue) {
	for _, is := range issues {
		if is.Code == jsontext.CodeTooManyEntries && (*c)[file] == "" {
			if *c == nil {
				*c = Cut{}
			}
			(*c)[file] = is.Msg
		}
	}
}

// Block makes every approvable component defined in a cut file unapprovable: the client
// reads every entry, so an approval of what vouch read would approve less than what runs
// (the first 1,024 handlers of 1,025). detail is the component detail naming its file,
// client the client with its release, as the sentences name it.
func (c Cut) Block(comps []*model.Component, detail, client, spec string) {
	if len(c) == 0 {
		return
	}
	for _, comp := range comps {
		v, _ := comp.Details.Get(detail)
		file, _ := v.(string)
		why, cut := c[file]
		if !cut || comp.Contract == nil {
			continue
		}
		comp.Contract = nil
		comp.Summary = append([]string{fmt.Sprintf("Blocked: %s holds more than vouch reads (%s), and %s reads all of it, so no approval of this %s can cover what runs.", file, why, client, comp.Kind)}, comp.Summary...)
		comp.Diagnostics = append(comp.Diagnostics, model.Place{File: file}.Component("entries-limit", model.SeverityError,
			fmt.Sprintf("%s holds more than vouch reads (%s): every %s it defines is unapprovable until it is split or shortened.", file, why, comp.Kind), spec))
	}
}
