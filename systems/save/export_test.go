package save

// ErrRecovered is errRecovered, for the fuzz test.
var ErrRecovered = errRecovered
