package bt

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/archai-go/archai/ai/blackboard"
)

// wideElement is a document whose one node, an AlwaysSuccess, has n attributes a0 … a<n-1>,
// then extra (" a0=\"\"" for a duplicate at the end).
func wideElement(n int, extra string) []byte {
	var b strings.Builder
	b.WriteString("<AlwaysSuccess")
	for i := range n {
		fmt.Fprintf(&b, ` a%d=""`, i)
	}
	b.WriteString(extra + "/>")
	return []byte(xmlDoc(b.String()))
}

// wideModel is a document whose TreeNodesModel declares an Action Wide with n input ports
// p0 … p<n-1>, then extra (`<input_port name="p0"/>` for a duplicate at the end).
func wideModel(n int, extra string) []byte {
	var b strings.Builder
	b.WriteString(`<root BTCPP_format="4" main_tree_to_execute="M">
<BehaviorTree ID="M"><AlwaysSuccess/></BehaviorTree>
<TreeNodesModel><Action ID="Wide">`)
	for i := range n {
		fmt.Fprintf(&b, `<input_port name="p%d"/>`, i)
	}
	b.WriteString(extra + "</Action></TreeNodesModel>\n</root>")
	return []byte(b.String())
}

// The duplicate checks of one element's attributes and of one model's ports look each
// name up once past 8 names (a set): a duplicate at the end is still found, with the
// message of a small element, at 1 to 50,000 names, and 50,000 load and build.
func TestLoadXMLWideElementsAreNotQuadratic(t *testing.T) {
	const n = 50000
	cases := []struct {
		name      string
		doc       func(n int, extra string) []byte
		dup, want string
	}{
		{"attributes", wideElement, ` a0="x"`, `attribute "a0" twice`},
		{"model ports", wideModel, `<input_port name="p0"/>`, `port "p0" declared twice (line 3)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, m := range []int{1, 2, 7, 8, 9, 100, n} {
				_, err := NewRegistry(blackboard.NewSchema()).LoadXML("t.xml", c.doc(m, c.dup))
				if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("%d and a duplicate: got %v, want ErrSyntax with %q", m, err, c.want)
				}
			}
			// 50,000 names load (comparing every pair took 8 s for attributes and
			// 12 s for ports, a set 0.05 s and 0.12 s: BenchmarkLoadXMLWide measures
			// it; no time is asserted here). The attributes' tree is built too: it
			// reports the first unknown ports, not one per attribute (the label of
			// each looked through all 50,000).
			doc := c.doc(n, "")
			r := NewRegistry(blackboard.NewSchema())
			main, err := r.LoadXML("t.xml", doc)
			if err != nil {
				t.Fatal(err)
			}
			if c.name == "attributes" {
				_, err := r.Tree(main)
				if !errors.Is(err, ErrPort) || !strings.Contains(err.Error(), `unknown port "a0"`) {
					t.Fatalf("got %v, want unknown port \"a0\"", err)
				}
			}
		})
	}
}

// BenchmarkLoadXMLWide loads one element of n attributes, and one model of n ports:
// ns/op grows with n, not with n².
func BenchmarkLoadXMLWide(b *testing.B) {
	for _, n := range []int{4, 1000, 10000, 50000} {
		for _, c := range []struct {
			name string
			doc  []byte
		}{{"attributes", wideElement(n, "")}, {"ports", wideModel(n, "")}} {
			b.Run(fmt.Sprintf("%s=%d", c.name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					_, _ = NewRegistry(blackboard.NewSchema()).LoadXML("t.xml", c.doc)
				}
			})
		}
	}
}

// BenchmarkTreeWide builds the tree of one AlwaysSuccess with n attributes no port reads:
// ns/op grows with n (the loader reports the first few, not every one).
func BenchmarkTreeWide(b *testing.B) {
	for _, n := range []int{4, 1000, 10000, 50000} {
		doc := wideElement(n, "")
		b.Run(fmt.Sprintf("attributes=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r := NewRegistry(blackboard.NewSchema())
				main, err := r.LoadXML("t.xml", doc)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := r.Tree(main); err == nil {
					b.Fatal("no error")
				}
			}
		})
	}
}
