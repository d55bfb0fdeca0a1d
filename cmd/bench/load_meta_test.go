package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A save file's meta with a key written twice, or a key the meta does not have, is
// refused as the library's loaders refuse them: encoding/json kept the last "seed" and
// dropped "think-budget" (the flag's spelling for think_budget) silently, so -load
// resumed a run with other settings than the file said.
func TestLoadRefusesAMetaWithADuplicateOrUnknownKey(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "g.json")
	var out, errs bytes.Buffer
	require.Equal(t, 0, run([]string{"-agents", "50", "-frames", "2", "-save", file, "-save-at", "1", "-json"}, &out, &errs), errs.String())
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	for _, c := range []struct{ from, to, want string }{
		{`"seed":`, `"seed":99,"seed":`, `edited.json: load: not a whole archai save file: meta holds the key "seed" twice` + "\n"}, // save.ReadMeta
		{`"think_budget":`, `"think-budget":`, `edited.json: meta: unknown field "think-budget"` + "\n"},
		{`"agents":`, `"Agents":50,"agents":`, `edited.json: meta: duplicate key "agents"` + "\n"}, // any case, as encoding/json
	} {
		from, to := c.from, c.to
		edited := bytes.Replace(data, []byte(from), []byte(to), 1)
		require.NotEqual(t, data, edited, from)
		edit := filepath.Join(dir, "edited.json")
		require.NoError(t, os.WriteFile(edit, edited, 0o644))
		out.Reset()
		errs.Reset()
		assert.Equal(t, 2, run([]string{"-load", edit, "-frames", "2"}, &out, &errs), to)
		assert.Empty(t, out.String(), to)
		assert.True(t, strings.HasSuffix(errs.String(), c.want), errs.String())
	}
	// the meta as saved loads
	errs.Reset()
	assert.Equal(t, 0, run([]string{"-load", file, "-frames", "2", "-json"}, &out, &errs), errs.String())
}

// metaFields lists crowdMeta's JSON keys, every one: a field added to the meta and not
// to the list would make every new save file refused.
func TestMetaFieldsAreCrowdMetasKeys(t *testing.T) {
	typ := reflect.TypeFor[crowdMeta]()
	var keys []string
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		keys = append(keys, name)
	}
	assert.Equal(t, keys, metaFields)
}
