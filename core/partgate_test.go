package core

import (
	"bytes"
	"io"
	"mime/multipart"
	"reflect"
	"testing"
)

// readForm parses body (boundary B) as net/http does, and returns the
// values and the files' names and contents.
func readForm(r io.Reader) (map[string][]string, map[string][]string, error) {
	form, err := multipart.NewReader(r, "B").ReadForm(1 << 20)
	if err != nil {
		return nil, nil, err
	}
	defer form.RemoveAll()
	files := map[string][]string{}
	for k, fhs := range form.File {
		for _, fh := range fhs {
			f, err := fh.Open()
			if err != nil {
				return nil, nil, err
			}
			b, _ := io.ReadAll(f)
			f.Close()
			files[k] = append(files[k], fh.Filename+"="+string(b))
		}
	}
	return form.Value, files, nil
}

// FuzzPartGate: whatever the body, a form that mime/multipart reads from
// it directly reads the same (values, file names, contents) through the
// upload gate, which never panics.
func FuzzPartGate(f *testing.F) {
	for _, seed := range []string{
		"--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--B--\r\n",
		"--B\nContent-Disposition: form-data; name=\"f\"; filename=\"x.txt\"\n\nabc\n--B--\n",
		"preamble\r\n--B\r\nContent-Disposition: form-data; name=\"a\"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nx=3Dy\r\n--B \r\nContent-Disposition: form-data; name=\"b\"\r\n\r\n\r\n--Bx\r\n--B--",
		"--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"../a\"\r\n\r\n\r\n--B\r\n\r\n--B--\r\nepilogue",
		"--B--\r\n",
		"",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		values, files, err := readForm(bytes.NewReader(body))
		if err != nil {
			return
		}
		gvalues, gfiles, gerr := readForm(newPartGate(bytes.NewReader(body), "B", 0, 1<<20))
		if gerr != nil {
			t.Fatalf("read directly, refused through the gate: %v", gerr)
		}
		if !reflect.DeepEqual(values, gvalues) || !reflect.DeepEqual(files, gfiles) {
			t.Fatalf("directly %v %v, through the gate %v %v", values, files, gvalues, gfiles)
		}
	})
}
