// Package script is BehaviorTree.CPP 4.x's scripting language on archai's typed
// blackboard: the language of Script and ScriptCondition nodes, of the pre- and
// post-condition attributes (_skipIf, _successIf, _failureIf, _while, _onSuccess,
// _onFailure, _onHalted, _post) and of HTN conditions and effects.
//
// A script is compiled once, at load, by [Compile] against an [Env]: the blackboard
// [blackboard.Schema] the agents' stores are made from, registered enums, and a hook
// mapping names to entries (SubTree remapping and the @ prefix). Compilation resolves
// every name to a slot and every operator to its operand kinds, so a syntax error, an
// unknown entry or a type error is a load error with the column. The [Program] is
// immutable and shared by all agents; [Program.Run], [Program.Bool] and [Program.Exec]
// evaluate it on one agent's [blackboard.Store] and allocate nothing unless the script
// builds a string (at most [MaxBuild] bytes per evaluation; see Limits below).
//
// Source: the "Introduction to Scripting" page of behaviortree.dev (BehaviorTree.CPP
// 4.x) and, for what that page leaves open, the behaviour of BehaviorTree.CPP 4.x's
// scripting engine (its tokenizer, Pratt parser and evaluator, and their tests). Where
// this package differs, the difference is listed below with the reason.
//
// # Grammar
//
//	script     = statement { separator statement } { ";" } .
//	separator  = ";" { ";" } | line break .         (a line break between two statements)
//	statement  = expr .
//	expr       = name assign_op expr              (right side: a full expression)
//	           | expr "?" expr ":" expr            (else branch: ternary level and tighter)
//	           | expr binary_op expr
//	           | expr compare_op expr { compare_op expr }
//	           | unary_op expr
//	           | "(" expr ")"
//	           | literal | name .
//	assign_op  = ":=" | "=" | "+=" | "-=" | "*=" | "/=" .
//	binary_op  = "||" | "&&" | "|" | "^" | "&" | "+" | "-" | ".." | "*" | "/" .
//	compare_op = "==" | "!=" | "<" | "<=" | ">" | ">=" .
//	unary_op   = "-" | "~" | "!" .
//	literal    = integer | real | string | "true" | "false" .
//	integer    = digit { digit } | ("0x" | "0X") hexdigit { hexdigit } .
//	real       = digit { digit } ( "." digit { digit } [ exponent ] | exponent ) .
//	exponent   = ("e" | "E") [ "+" | "-" ] digit { digit } .
//	string     = "'" { any byte but "'" } "'" .        (no escapes)
//	name       = [ "@" ] (letter | "_") { letter | digit | "_" } .
//
// Letters and digits are ASCII; whitespace is space, tab, CR and LF. A letter or a point right after a number is an
// error ("3foo", "65.", "0x1F.5"); "65..x" is 65 .. x. An integer literal beyond int64 is
// an error. A script holds at least one statement; its value is its last statement's.
//
// # Precedence
//
// From loosest to tightest (BT.CPP's binding powers):
//
//	level  operators                  associativity
//	1      :=  =  +=  -=  *=  /=      right: x := y := 1; the left side must be a name
//	2      ?:                         right: a ? b : c ? d : e nests in the else branch;
//	                                  (a ? b : c) + 1 needs its parentheses
//	3      ||                         left
//	4      &&                         left
//	5      ==  !=  <  <=  >  >=       chained: a < b < c is a < b && b < c, b evaluated once
//	6      |  ^                       left
//	7      &                          left
//	8      +  -  ..                   left
//	9      *  /                       left
//	10     unary -  ~  !              prefix: -a*b is (-a)*b, !a == b is (!a) == b
//
// # Values and types
//
// A value is a Bool, an Int (int64), a Float (float64) or a String; every expression's
// kind is known at Compile. Blackboard entries map by their Go kind: bool is Bool; int,
// int8…int64, uint, uint8…uint64 and uintptr are Int; float32 and float64 are Float;
// string is String; types defined on these (enums such as type Mode int8) likewise. A
// script naming an entry of any other type (a vector, an entity) is a compile error
// naming the entry and its type, except a string assigned with = or := to an entry whose
// type implements encoding.TextUnmarshaler (goal = '-1;3', BT.CPP's convertFromString): a
// literal is converted once at Compile, other strings each time they run, which
// allocates (see text.go). A name in [Env.Enums] is an Int constant (it shadows an
// entry of the same name; @name never names an enum).
//
//   - Numbers: a Bool is a number 0 or 1 wherever a number is expected (as in BT.CPP).
//     The operators + - * on two Ints give an Int (an overflow of int64 is an error
//     wrapping [ErrOverflow]); on a Float and a number they give a Float. / is always a Float division (7/2 is
//     3.5, as in BT.CPP); dividing by zero is an error wrapping [ErrDivisionByZero].
//     Unary - of an Int is an Int. & | ^ ~ take whole numbers (a Float that is not whole
//     is an error wrapping [ErrConversion]) and give an Int.
//   - Strings: + of two strings and .. join them; .. joins a string and a number too (the
//     number written as [Value.String] writes it). A result longer than [MaxString] is an
//     error wrapping [ErrLimit]. Other operators on strings are compile errors, and so is
//     .. of two numbers.
//   - Logic: && || ! take Bools or numbers (not zero is true) and give a Bool. && and ||
//     short-circuit: the right side is not evaluated (its assignments do not happen) when
//     the left decides.
//   - Comparisons give a Bool. Numbers compare numerically (an Int with a Float as
//     float64). == and != involving a Float are true within an absolute difference of
//     float32's epsilon (1.19e-7), as in BT.CPP; < <= > >= are exact. Strings compare
//     bytewise. A string compared with a number is converted to a number: true is 1,
//     false 0, an enum name its value, else a decimal number (strconv.ParseFloat); a
//     string that is none of these is an error wrapping [ErrConversion] (at Compile for
//     a literal).
//   - The ternary operator's condition is a Bool, a number (not zero is true) or a string
//     (not "" is true). Its branches meet in one kind (an Int and a Float give a Float);
//     a string and a number is a compile error.
//   - [Program.Bool], the condition of a ScriptCondition or a precondition, is the truth
//     of the script's value; a String value is an error wrapping [ErrType].
//
// # Assignment
//
// name := value creates the entry if the schema lacks it, typed by the value's kind:
// bool, int, float64 or string (Compile declares it in [Env.Schema]; on 32-bit builds an
// int holds only int32's range, and a larger value is an error wrapping [ErrConversion]);
// if the entry exists, := is =. name = value needs the entry to exist: otherwise a compile error
// wrapping [ErrUnknownEntry]. a op= b is a = a op b with a evaluated once; a must exist.
// An assignment's value is the entry's new value. The value converts to the entry's type
// (BT.CPP's rule: never lose information):
//
//   - to an integer entry: a Bool as 0 or 1, an Int if it is in the type's range, a Float
//     if it is whole and in range, a string if it reads as such a number; otherwise an
//     error wrapping [ErrConversion] (x = 7/2 fails, x = 6/2 stores 3);
//   - to a float entry: any number (to float32 rounded to nearest; a finite value beyond
//     float32's range is an error), a string that reads as a number;
//   - to a bool entry: a Bool, a number that is 0 or 1, a string that reads as one;
//   - to a string entry: only a string (a number is a compile error, as in BT.CPP) of
//     at most [MaxString] bytes (a longer one, read from an entry Go code wrote, is an
//     error wrapping [ErrLimit]).
//
// Reading an entry that is declared but not set in the store is an error wrapping
// [ErrNotSet]; so is a compound assignment to one. A uint64 entry holding a value beyond
// int64 reads as an error wrapping [ErrConversion].
//
// # Names and the root blackboard
//
// A name is looked up in [Env.Enums], then passed to [Env.Resolve] (if set), which maps
// it to the schema's entry or to a constant: a behavior-tree loader maps a SubTree's
// private and remapped keys there, and @name (BT.CPP's root blackboard) to the agent's
// root key. Without Resolve, name and @name both name the entry called name: with one
// store per agent and no SubTree scope, the root blackboard is the store.
//
// # Errors
//
// Compile errors and run-time errors are [*Error]: the column (and line, for scripts
// with newlines), a message, the script around the column (at most about 64 bytes),
// [Env.Where] as a prefix, and a sentinel to test with errors.Is. Run-time errors are
// built at Compile, so a failing evaluation allocates nothing either; evaluation never
// panics. A failing statement stops the script; earlier statements' assignments stay.
//
// Limits: a script is at most [MaxSource] bytes and nests at most [MaxDepth] deep; more
// is a compile error wrapping [ErrLimit]. When it runs, a string it builds (.. or + of
// strings, +=) or stores into an entry is at most [MaxString] bytes (64 KiB), and one
// evaluation builds at most [MaxBuild] bytes of strings in all (256 KiB); more is a
// run-time error wrapping [ErrLimit], at the operator or the assignment, reported before
// the string is allocated (s = s .. s repeated stops when s would pass MaxString). So
// compiling and evaluating any input is bounded in time and memory.
//
// # Differences from BehaviorTree.CPP 4.x
//
//   - Types are checked at Compile, not at run time: 'a' - 1, a number assigned to a
//     string entry, a literal string that is not a number compared with a number, and
//     unknown entries are load errors. An entry a script reads must be declared (by a
//     port, a leaf or an earlier :=) before the script compiles.
//   - Statements are separated by ';' or a line break (as the documentation writes
//     them). BT.CPP also accepts "a:=1 b:=2" on one line; here that is a syntax error,
//     so that a missing operator ("hp > 10 ammo > 0") is not silently read as two
//     statements. An expression still continues over a line break when the next line
//     goes on with an operator.
//   - && and || short-circuit (BT.CPP 4.x evaluates both sides).
//   - Integer + - * stay integers (BT.CPP computes in double): results agree up to 2^53;
//     beyond int64 is an error here instead of a rounded double. true and false are
//     Bools (BT.CPP: the doubles 1 and 0); they still act as 1 and 0 in arithmetic and
//     comparisons.
//   - Division by zero is an error (BT.CPP: an infinity or NaN written to the
//     blackboard).
//   - A Float joined to a string is written in its shortest form ("1.5"; BT.CPP's
//     std::to_string writes "1.500000"), and a Bool as true or false.
//   - A number used as a condition is true when not zero (BT.CPP's ScriptCondition
//     rejects integers other than 0 and 1).
//   - ~ of a Float that is not whole is an error (BT.CPP truncates it).
//   - Strings are bounded: a string longer than [MaxString], or more than [MaxBuild]
//     bytes built in one evaluation, is an error (BT.CPP grows them until memory runs
//     out).
package script
