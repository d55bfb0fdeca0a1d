package debugview

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// DNS rebinding: a page of another site whose name the attacker makes resolve to
// 127.0.0.1 sends requests whose Origin and Host both name that site, so the Origin
// check passed them: it read /state and paused the simulation. Requests must name
// localhost, an IP address or a host of Viewer.AllowHosts.
func TestRequestsNamingAnotherHostAreRefused(t *testing.T) {
	v := New()
	srv := httptest.NewServer(v.Handler())
	defer srv.Close()
	do := func(method, path, host string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader("op=pause"))
		require.NoError(t, err)
		req.Host = host
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", "http://"+host)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		var b strings.Builder
		buf := make([]byte, 512)
		n, _ := resp.Body.Read(buf)
		b.Write(buf[:n])
		return resp.StatusCode, b.String()
	}
	for _, host := range []string{"evil.example:8080", "evil.example", "localhost.evil.example", "mypc.lan:8080"} {
		code, body := do(http.MethodGet, "/state", host)
		assert.Equal(t, http.StatusForbidden, code, host)
		assert.Contains(t, body, "not allowed: open the page at localhost or an IP address, or add the name to Viewer.AllowHosts", host)
		code, _ = do(http.MethodPost, "/cmd", host)
		assert.Equal(t, http.StatusForbidden, code, host)
	}
	for _, host := range []string{"localhost:8080", "LOCALHOST", "app.localhost:1", "127.0.0.1:8080", "[::1]:8080", "192.168.1.20", "localhost."} {
		code, body := do(http.MethodGet, "/state", host)
		assert.Equal(t, http.StatusOK, code, "%s: %s", host, body)
	}
	assert.True(t, v.hostAllowed(""), "an HTTP/1.0 client names no host: not a browser")
	v.AllowHosts = []string{"MyPC.lan"}
	code, _ := do(http.MethodGet, "/state", "mypc.lan:8080")
	assert.Equal(t, http.StatusOK, code)
}
