package mvc_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/mvc"
)

type docNote struct {
	ID   int    `json:"id"`
	Text string `json:"text"`
}

// docNewNote is bound as a typed handler's input: the query and header
// from the request, the rest from the body.
type docNewNote struct {
	Dry    bool   `query:"dry"`
	Author string `header:"X-Author"`
	Text   string `json:"text"`
}

type DocNotesController struct{}

func (c *DocNotesController) Get() []docNote { return []docNote{{1, "a"}} }

func (c *DocNotesController) GetBy(id int) (docNote, bool) { return docNote{id, "x"}, id == 1 }

func (c *DocNotesController) Post(in docNewNote) (docNote, error) {
	if in.Text == "" {
		return docNote{}, &core.ValidationError{Fields: map[string]string{"text": "is required"}}
	}
	text := in.Text + " by " + in.Author
	if in.Dry {
		text += " (dry)"
	}
	return docNote{2, text}, nil
}

func (c *DocNotesController) GetText() string { return "hello" }

func (c *DocNotesController) GetRaw(ctx core.Context) { ctx.Text("raw") }

// TestBodyBindsLikeTypedHandlers checks that a controller's body parameter
// gets its query and header fields as a typed handler's input does.
func TestBodyBindsLikeTypedHandlers(t *testing.T) {
	app := quietApp()
	if err := mvc.Register(mvc.New(app.Group("/notes")), new(DocNotesController)); err != nil {
		t.Fatal(err)
	}
	r := serve(app, "POST", "/notes?dry=true", `{"text":"hi"}`, "application/json")
	if r.Code != 200 || !strings.Contains(r.Body.String(), `"text":"hi by  (dry)"`) {
		t.Errorf("POST: %d %s", r.Code, r.Body)
	}
	r = serve(app, "POST", "/notes?dry=maybe", `{"text":"hi"}`, "application/json")
	if r.Code != 400 || !strings.Contains(r.Body.String(), `dry: must be true or false`) {
		t.Errorf("bad query: %d %s", r.Code, r.Body)
	}
}

// TestControllerDocument checks the document of a controller's routes.
func TestControllerDocument(t *testing.T) {
	app := quietApp()
	if err := mvc.Register(mvc.New(app.Group("/notes")), new(DocNotesController)); err != nil {
		t.Fatal(err)
	}
	doc, err := app.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(doc)
	var m struct {
		Paths map[string]map[string]struct {
			Summary     string
			Parameters  []struct{ Name, In string }
			RequestBody *struct {
				Content map[string]struct {
					Schema struct {
						Ref string `json:"$ref"`
					}
				}
			}
			Responses map[string]struct {
				Content map[string]json.RawMessage
			}
		}
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	post := m.Paths["/notes"]["post"]
	if post.Summary != "DocNotesController.Post" || len(post.Parameters) != 2 || post.Parameters[0].Name != "dry" || post.Parameters[1].Name != "X-Author" {
		t.Errorf("POST /notes: %+v", post)
	}
	if post.RequestBody == nil || post.RequestBody.Content["application/json"].Schema.Ref != "#/components/schemas/docNewNote" {
		t.Errorf("POST /notes body: %s", b)
	}
	for _, code := range []string{"200", "400", "413", "415"} {
		if _, ok := post.Responses[code]; !ok {
			t.Errorf("POST /notes has no %s answer", code)
		}
	}
	byID := m.Paths["/notes/{param1}"]["get"].Responses
	if _, ok := byID["404"]; !ok || byID["200"].Content["application/json"] == nil {
		t.Errorf("GET /notes/{param1}: (T, bool) gives 200 JSON and 404: %+v", byID)
	}
	if _, ok := m.Paths["/notes/text"]["get"].Responses["200"].Content["text/plain"]; !ok {
		t.Errorf("GET /notes/text: a string is text/plain: %s", b)
	}
	if _, ok := m.Paths["/notes/raw"]["get"].Responses["default"]; !ok {
		t.Errorf("GET /notes/raw: a method writing through the Context has the default answer: %s", b)
	}
}
