package testtool

import "testing"

func TestLookFindsShell(t *testing.T) {
	if Look("sh") == "" {
		t.Fatal("Look(sh) found nothing")
	}
	if Look("no-such-program-vireo") != "" {
		t.Fatal("Look found a program that does not exist")
	}
}

func TestNotHere(t *testing.T) {
	t.Setenv("VIREO_NOT_HERE", "dotnet, other")
	for _, c := range []struct {
		p    string
		want bool
	}{{"dotnet", true}, {"other", true}, {"node", false}, {"", false}} {
		if got := NotHere(c.p); got != c.want {
			t.Errorf("NotHere(%q) = %v, want %v", c.p, got, c.want)
		}
	}
}

func TestInstallMissingWithoutPackageSays(t *testing.T) {
	if _, err := Install("no-such-program-vireo"); err == nil {
		t.Fatal("Install of a made-up program returned no error")
	}
}
