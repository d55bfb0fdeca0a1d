package save

// ErrRecovered is errRecovered, for the fuzz test.
var ErrRecovered = errRecovered

// SetStreamAbove sets the size above which a value is decoded token by token, and
// returns the setting before.
func SetStreamAbove(n int) int { old := streamAbove; streamAbove = n; return old }

// StreamAbove returns the size of a value's JSON above which Load decodes it token by token.
func StreamAbove() int { return streamAbove }
