// Package inlineuser is an application's handler that imports the facade
// alone, for TestFacadeInlines: its calls of core's small methods must be
// inlined.
package inlineuser

import "github.com/vireo-go/vireo"

// Handler writes the route parameters, read by name and by position.
func Handler(c vireo.Context) {
	c.WriteString(c.Param("id"))
	ps := c.Params()
	for i, n := 0, ps.Len(); i < n; i++ {
		c.WriteString(ps.At(i).Value)
	}
}
