package save

import "encoding/json"

// ErrRecovered is errRecovered, for the fuzz test.
var ErrRecovered = errRecovered

// SetStreamAbove sets the size above which a value is decoded token by token, and
// returns the setting before.
func SetStreamAbove(n int) int { old := streamAbove; streamAbove = n; return old }

// StreamAbove returns the size of a value's JSON above which Load decodes it token by token.
func StreamAbove() int { return streamAbove }

// Remarshal decodes a save file into its document and encodes that with json.Marshal,
// as Save did before it wrote the components straight into the file.
func Remarshal(data []byte) ([]byte, error) {
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	return json.Marshal(f)
}
