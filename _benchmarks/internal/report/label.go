// Display names of the apps in RESULTS.md and the charts. An app appears
// under its directory name, except the plain net/http apps (nethttp and
// nethttp-<comparison>): they are the floor of their comparison, what it
// costs with no framework at all, and their label says so. results.json
// keeps the directory names.
package report

import "strings"

// FloorLabel is the label of a comparison's plain net/http app.
const FloorLabel = "net/http (floor)"

// Label returns the name under which app appears in tables and charts.
func Label(app string) string {
	if app == "nethttp" || strings.HasPrefix(app, "nethttp-") {
		return FloorLabel
	}
	return app
}
