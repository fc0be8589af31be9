// Registration of the Django engine's custom filters.
//
// pongo2 keeps filters in one process-wide map, with no lock, and binds a
// filter to a template when the template is parsed. A DjangoEngine therefore
// cannot have private filters: the filters it is given are registered in
// pongo2 by NewDjango, under their own names, and every pongo2 template of
// the process can use them afterwards. A name pongo2 already knows (a
// builtin, a filter registered by other code or by another engine) is an
// error from NewDjango rather than a silent replacement.
//
// pongoMu keeps the engines of this package from registering a filter while
// one of them parses (pongo2 reads the map during parsing). Code outside this
// package that calls pongo2.RegisterFilter while templates are being parsed
// still races with pongo2 itself; register filters at start-up.

package view

import (
	"fmt"
	"sort"
	"sync"

	"github.com/flosch/pongo2/v6"
)

var (
	// pongoMu is held for writing while registering filters and for
	// reading while parsing templates.
	pongoMu sync.RWMutex
	// filterOwners records which engine registered each filter.
	filterOwners = map[string]*DjangoEngine{}
)

// registerFilters registers the filters of owner, all or none.
func registerFilters(owner *DjangoEngine, filters map[string]pongo2.FilterFunction) error {
	if len(filters) == 0 {
		return nil
	}
	names := make([]string, 0, len(filters))
	for name := range filters {
		names = append(names, name)
	}
	sort.Strings(names)

	pongoMu.Lock()
	defer pongoMu.Unlock()
	for _, name := range names {
		if filters[name] == nil {
			return fmt.Errorf("view: django: filter %q is nil", name)
		}
		if filterOwners[name] != owner && pongo2.FilterExists(name) {
			return fmt.Errorf("view: django: filter %q already exists in pongo2 (filters are global to the process: pick another name)", name)
		}
	}
	for _, name := range names {
		var err error
		if pongo2.FilterExists(name) {
			err = pongo2.ReplaceFilter(name, filters[name])
		} else {
			err = pongo2.RegisterFilter(name, filters[name])
		}
		if err != nil {
			return fmt.Errorf("view: django: filter %q: %w", name, err)
		}
		filterOwners[name] = owner
	}
	return nil
}
