//! The house has no circles: the rooms of `src/` (the library's top modules), bottom up, are
//! [`ROOMS`]; a room may use only the rooms below it, and inside every module (a room, a folder of
//! it, the command line's `src/cli/`) its parts may not use one another in a circle. Read from the
//! sources: every `use` line, every `crate::…`, `super::…` and `self::…` path in the code (comments
//! and `#[cfg(test)]` items aside), each followed through the `use` and `pub use` lines of the
//! modules it passes to the module that defines what it names.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The library's rooms, bottom up: each may use only those before it. The command line
/// (`src/main.rs`, `src/cli/`) is its own crate above them all. The README's "What is where"
/// lists them in this order.
const ROOMS: [&str; 13] = [
    "board",
    "diagnostic",
    "rules",
    "notation",
    "replay",
    "generate",
    "repair",
    "render",
    "archive",
    "export",
    "extract",
    "prelude",
    "lsp",
];

/// Arrows up between rooms that other work is taking out, tolerated until then so that the test
/// guards everything else (none now). An entry no longer found does no harm: remove it then.
const ARROWS_BEING_TAKEN_OUT: [(&str, &str); 0] = [];

/// Modules whose parts are being untangled by other work, tolerated until then (none now).
const CIRCLES_BEING_TAKEN_OUT: [&str; 0] = [];

#[test]
fn no_room_uses_a_room_above_it() {
    let house = House::read("src/lib.rs");
    let mut wrong = BTreeSet::new();
    for arrow in house.arrows() {
        let (Some(from), Some(to)) = (arrow.from.first(), arrow.to.first()) else {
            continue;
        };
        if ARROWS_BEING_TAKEN_OUT.contains(&(from.as_str(), to.as_str())) {
            continue;
        }
        let rank = |room: &String| ROOMS.iter().position(|r| r == room);
        match (rank(from), rank(to)) {
            (Some(a), Some(b)) if b > a => {
                wrong.insert(format!("{from} uses {to}, a room above it: {}", arrow.at));
            }
            (None, _) => {
                wrong.insert(format!("room {from} is not in ROOMS: {}", arrow.at));
            }
            (_, None) => {
                wrong.insert(format!("room {to} is not in ROOMS: {}", arrow.at));
            }
            _ => {}
        }
    }
    assert!(wrong.is_empty(), "{}", Vec::from_iter(wrong).join("\n"));
}

#[test]
fn no_module_has_parts_that_use_one_another_in_a_circle() {
    let mut circles = Vec::new();
    for root in ["src/lib.rs", "src/main.rs"] {
        circles.extend(House::read(root).circles());
    }
    assert!(circles.is_empty(), "{}", circles.join("\n\n"));
}

#[test]
fn the_readme_lists_the_rooms_in_their_order() {
    let readme = fs::read_to_string("README.md").expect("README.md");
    let section = readme
        .split("\n## What is where\n")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("the README has a section \"What is where\"");
    let listed: Vec<&str> = section
        .lines()
        .filter_map(|line| line.strip_prefix("| `src/"))
        .map(|rest| rest.split(['/', '.', '`']).next().unwrap_or_default())
        .collect();
    let mut expected: Vec<&str> = ROOMS.to_vec();
    expected.push("cli");
    assert_eq!(listed, expected, "What is where's rows for src/, in order");
}

#[test]
fn the_reading_sees_arrows_and_circles() {
    // Two parts of `a` that use each other, and a use of `a` from a room below it.
    let dir = std::env::temp_dir().join(format!("salta-house-{}", std::process::id()));
    fs::create_dir_all(dir.join("a")).expect("a scratch folder");
    let write = |name: &str, text: &str| fs::write(dir.join(name), text).expect("write");
    write("lib.rs", "mod a;\nmod b;\n");
    write("a/mod.rs", "mod x;\nmod y;\npub use x::X;\n");
    write(
        "a/x.rs",
        "use super::y::Y; // a comment naming crate::b\npub struct X;",
    );
    write(
        "a/y.rs",
        "pub struct Y;\nfn f() -> super::X { let s = \"crate::b\"; todo!() }\n",
    );
    write(
        "b.rs",
        "#[cfg(test)]\nmod tests { use crate::a::X; }\nfn g() { crate::a::X; }\n",
    );
    let house = House::read(dir.join("lib.rs"));
    let arrows: BTreeSet<String> = house
        .arrows()
        .map(|a| format!("{} -> {}", a.from.join("::"), a.to.join("::")))
        .collect();
    let expected = ["a -> a::x", "a::x -> a::y", "a::y -> a::x", "b -> a::x"];
    assert_eq!(arrows, BTreeSet::from(expected.map(String::from)));
    let circles = house.circles();
    assert_eq!(circles.len(), 1, "{circles:?}");
    assert!(circles[0].starts_with("in a: x, y"), "{circles:?}");
    fs::remove_dir_all(&dir).ok();
}

/// A use of one module's item (or of the module) by another: the path written and where.
struct Arrow {
    from: Vec<String>,
    to: Vec<String>,
    at: String,
}

/// The modules of a crate, read from its root file.
struct House {
    modules: Vec<Module>,
}

#[derive(Default)]
struct Module {
    path: Vec<String>,
    file: String,
    parent: Option<usize>,
    children: BTreeMap<String, usize>,
    /// Names this module defines.
    items: BTreeSet<String>,
    /// Names brought in by `use` lines: the path as written.
    imports: BTreeMap<String, Vec<String>>,
    /// `use a::*` lines.
    globs: Vec<Vec<String>>,
    /// Every path the module's code names, with its line.
    paths: Vec<(Vec<String>, usize)>,
}

impl House {
    fn read(root: impl AsRef<Path>) -> House {
        let mut house = House {
            modules: Vec::new(),
        };
        let root = root.as_ref();
        let text = fs::read_to_string(root).unwrap_or_else(|e| panic!("{}: {e}", root.display()));
        let dir = root.parent().expect("a folder").to_path_buf();
        house.add(Vec::new(), None, root.display().to_string(), &text, dir);
        house
    }

    /// Adds a module read from `text`, with its file modules (in `dir`) and inline ones.
    fn add(
        &mut self,
        path: Vec<String>,
        parent: Option<usize>,
        file: String,
        text: &str,
        dir: PathBuf,
    ) -> usize {
        let tokens = without_tests(tokens(&strip(text)));
        self.add_tokens(path, parent, file, &tokens, dir)
    }

    fn add_tokens(
        &mut self,
        path: Vec<String>,
        parent: Option<usize>,
        file: String,
        tokens: &[Token],
        dir: PathBuf,
    ) -> usize {
        let me = self.modules.len();
        self.modules.push(Module {
            path: path.clone(),
            file: file.clone(),
            parent,
            ..Module::default()
        });
        let mut i = 0;
        while i < tokens.len() {
            let word = tokens[i].text.as_str();
            let next = |k: usize| tokens.get(i + k).map_or("", |t| t.text.as_str());
            match word {
                "mod" if next(2) == ";" => {
                    let name = next(1).to_string();
                    let (child_file, child_dir) = module_file(&dir, &name);
                    let text = fs::read_to_string(&child_file)
                        .unwrap_or_else(|e| panic!("{}: {e}", child_file.display()));
                    let child_path = [path.clone(), vec![name.clone()]].concat();
                    let shown = child_file.display().to_string();
                    let child = self.add(child_path, Some(me), shown, &text, child_dir);
                    self.modules[me].children.insert(name, child);
                    i += 3;
                }
                "mod" if next(2) == "{" => {
                    let name = next(1).to_string();
                    let end = closing(tokens, i + 2);
                    let child_path = [path.clone(), vec![name.clone()]].concat();
                    let child_dir = dir.join(&name);
                    let inner = &tokens[i + 3..end];
                    let child =
                        self.add_tokens(child_path, Some(me), file.clone(), inner, child_dir);
                    self.modules[me].children.insert(name, child);
                    i = end + 1;
                }
                "use" => {
                    let end = (i..tokens.len())
                        .find(|&k| tokens[k].text == ";")
                        .unwrap_or(tokens.len());
                    let line = tokens[i].line;
                    let mut trees = Vec::new();
                    use_tree(&tokens[i + 1..end], &mut 0, Vec::new(), &mut trees);
                    let module = &mut self.modules[me];
                    for (written, alias) in trees {
                        if written.last().is_some_and(|s| s == "*") {
                            let mut glob = written.clone();
                            glob.pop();
                            module.globs.push(glob);
                        } else if let Some(name) = alias.or_else(|| written.last().cloned()) {
                            module.imports.insert(name, written.clone());
                        }
                        module.paths.push((written, line));
                    }
                    i = end + 1;
                }
                "fn" | "struct" | "enum" | "trait" | "type" | "const" | "static" | "union" => {
                    if let Some(name) = tokens.get(i + 1).filter(|t| t.is_word()) {
                        self.modules[me].items.insert(name.text.clone());
                    }
                    i += 1;
                }
                "crate" | "super" | "self" if next(1) == "::" => {
                    let line = tokens[i].line;
                    let mut written = vec![word.to_string()];
                    let mut k = i + 1;
                    while tokens.get(k).is_some_and(|t| t.text == "::")
                        && tokens.get(k + 1).is_some_and(Token::is_word)
                    {
                        written.push(tokens[k + 1].text.clone());
                        k += 2;
                    }
                    self.modules[me].paths.push((written, line));
                    i = k;
                }
                _ => i += 1,
            }
        }
        me
    }

    /// The module a path written in module `at` leads to, or `None` outside the crate.
    fn resolve(&self, at: usize, written: &[String], depth: usize) -> Option<usize> {
        let first = written.first()?;
        let mut current = match first.as_str() {
            "crate" => 0,
            "self" => at,
            "super" => self.modules[at].parent?,
            name if self.modules[at].children.contains_key(name) => at,
            _ => return None,
        };
        let mut rest = &written[1..];
        if first != "crate" && first != "self" && first != "super" {
            rest = written;
        }
        while let Some((segment, after)) = rest.split_first() {
            let module = &self.modules[current];
            if segment == "super" {
                current = module.parent?;
            } else if segment == "self" {
            } else if let Some(&child) = module.children.get(segment) {
                current = child;
            } else {
                return Some(self.item_home(current, segment, depth).unwrap_or(current));
            }
            rest = after;
        }
        Some(current)
    }

    /// The module that defines `name`, as seen from module `at` (through its `use` lines).
    fn item_home(&self, at: usize, name: &str, depth: usize) -> Option<usize> {
        let module = &self.modules[at];
        if module.items.contains(name) || depth > 16 {
            return Some(at);
        }
        if let Some(written) = module.imports.get(name) {
            return self.resolve(at, written, depth + 1);
        }
        module.globs.iter().find_map(|glob| {
            let there = self.resolve(at, glob, depth + 1)?;
            let home = self.item_home(there, name, depth + 1)?;
            (self.modules[home].items.contains(name)).then_some(home)
        })
    }

    fn arrows(&self) -> impl Iterator<Item = Arrow> + '_ {
        self.modules
            .iter()
            .enumerate()
            .flat_map(move |(at, module)| {
                module.paths.iter().filter_map(move |(written, line)| {
                    let to = self.resolve(at, written, 0)?;
                    (to != at).then(|| Arrow {
                        from: module.path.clone(),
                        to: self.modules[to].path.clone(),
                        at: format!("{}:{line}: {}", module.file, written.join("::")),
                    })
                })
            })
    }

    /// Every circle among the parts of one module, described.
    fn circles(&self) -> Vec<String> {
        // Inside each module, the arrows between its parts (a part's own parts included).
        let mut within: BTreeMap<Vec<String>, BTreeMap<(String, String), String>> = BTreeMap::new();
        for arrow in self.arrows() {
            let shared = arrow
                .from
                .iter()
                .zip(&arrow.to)
                .take_while(|(a, b)| a == b)
                .count();
            let module = arrow.from[..shared].join("::");
            if shared < arrow.from.len() && shared < arrow.to.len() {
                let parts = (arrow.from[shared].clone(), arrow.to[shared].clone());
                let tolerated = (parts.0.as_str(), parts.1.as_str());
                if CIRCLES_BEING_TAKEN_OUT.contains(&module.as_str())
                    || (shared == 0 && ARROWS_BEING_TAKEN_OUT.contains(&tolerated))
                {
                    continue;
                }
                within
                    .entry(arrow.from[..shared].to_vec())
                    .or_default()
                    .entry(parts)
                    .or_insert(arrow.at);
            }
        }
        let mut found = Vec::new();
        for (module, arrows) in &within {
            for circle in strongly_connected(arrows.keys()) {
                let name = if module.is_empty() {
                    "the crate".to_string()
                } else {
                    module.join("::")
                };
                let mut text = format!("in {name}: {} use one another", circle.join(", "));
                for ((a, b), at) in arrows {
                    if circle.contains(a) && circle.contains(b) {
                        text.push_str(&format!("\n  {a} -> {b} ({at})"));
                    }
                }
                found.push(text);
            }
        }
        found
    }
}

/// The groups of two or more nodes that reach one another (Tarjan's algorithm).
fn strongly_connected<'a>(arrows: impl Iterator<Item = &'a (String, String)>) -> Vec<Vec<String>> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (a, b) in arrows {
        next.entry(a).or_default().push(b);
        next.entry(b).or_default();
    }
    struct State<'a> {
        next: BTreeMap<&'a str, Vec<&'a str>>,
        index: BTreeMap<&'a str, (usize, usize)>,
        stack: Vec<&'a str>,
        groups: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, node: &'a str) {
        let number = s.index.len();
        s.index.insert(node, (number, number));
        s.stack.push(node);
        for other in s.next[node].clone() {
            match s.index.get(other).copied() {
                None => {
                    visit(s, other);
                    let low = s.index[other].1.min(s.index[node].1);
                    s.index.get_mut(node).expect("visited").1 = low;
                }
                Some((other_number, _)) if s.stack.contains(&other) => {
                    let low = other_number.min(s.index[node].1);
                    s.index.get_mut(node).expect("visited").1 = low;
                }
                Some(_) => {}
            }
        }
        if s.index[node].0 == s.index[node].1 {
            let at = s
                .stack
                .iter()
                .position(|&n| n == node)
                .expect("on the stack");
            let mut group: Vec<String> = s.stack.drain(at..).map(String::from).collect();
            if group.len() > 1 {
                group.sort();
                s.groups.push(group);
            }
        }
    }
    let nodes: Vec<&str> = next.keys().copied().collect();
    let mut state = State {
        next,
        index: BTreeMap::new(),
        stack: Vec::new(),
        groups: Vec::new(),
    };
    for node in nodes {
        if !state.index.contains_key(node) {
            visit(&mut state, node);
        }
    }
    state.groups
}

/// Where `mod name;` in a module whose files live in `dir` is, and the folder of its own modules.
fn module_file(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    let flat = dir.join(format!("{name}.rs"));
    if flat.exists() {
        (flat, dir.join(name))
    } else {
        (dir.join(name).join("mod.rs"), dir.join(name))
    }
}

/// The paths of a `use` tree (after `use`), each with its `as` name if it has one.
fn use_tree(
    tokens: &[Token],
    at: &mut usize,
    mut prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    while let Some(token) = tokens.get(*at) {
        *at += 1;
        match token.text.as_str() {
            "::" => {}
            "{" => {
                loop {
                    use_tree(tokens, at, prefix.clone(), out);
                    match tokens.get(*at).map(|t| t.text.as_str()) {
                        Some(",") => *at += 1,
                        _ => break,
                    }
                    if tokens.get(*at).is_some_and(|t| t.text == "}") {
                        break;
                    }
                }
                *at += 1; // the closing brace
                return;
            }
            "*" => {
                prefix.push("*".to_string());
                out.push((prefix, None));
                return;
            }
            "as" => {
                let alias = tokens.get(*at).map(|t| t.text.clone());
                *at += 1;
                out.push((prefix, alias));
                return;
            }
            "," | "}" => {
                *at -= 1;
                out.push((prefix, None));
                return;
            }
            word => prefix.push(word.to_string()),
        }
    }
    if !prefix.is_empty() {
        out.push((prefix, None));
    }
}

/// A word or a punctuation mark of the code, with its line.
#[derive(Clone, Debug)]
struct Token {
    text: String,
    line: usize,
}

impl Token {
    fn is_word(&self) -> bool {
        self.text
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
    }
}

/// Words, `::` and single marks of code without comments or string contents.
fn tokens(code: &str) -> Vec<Token> {
    let chars: Vec<char> = code.chars().collect();
    let (mut out, mut line, mut i) = (Vec::new(), 1, 0);
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let text = chars[start..i].iter().collect();
            out.push(Token { text, line });
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push(Token {
                text: "::".into(),
                line,
            });
            i += 2;
        } else {
            out.push(Token {
                text: c.to_string(),
                line,
            });
            i += 1;
        }
    }
    out
}

/// The tokens without the items under `#[cfg(test)]` (test code may use any room).
fn without_tests(tokens: Vec<Token>) -> Vec<Token> {
    let text = |k: usize| tokens.get(k).map_or("", |t| t.text.as_str());
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let is_test = (0..7)
            .map(|k| text(i + k))
            .eq(["#", "[", "cfg", "(", "test", ")", "]"]);
        if !is_test {
            out.push(tokens[i].clone());
            i += 1;
            continue;
        }
        i += 7;
        // Further attributes, then the item: to its `;` or through its braces.
        while text(i) == "#" && text(i + 1) == "[" {
            i = closing(&tokens, i + 1) + 1;
        }
        let mut depth = 0;
        while i < tokens.len() {
            match text(i) {
                "(" | "[" => depth += 1,
                ")" | "]" => depth -= 1,
                ";" if depth == 0 => break,
                "{" if depth == 0 => {
                    i = closing(&tokens, i);
                    break;
                }
                _ => {}
            }
            i += 1;
        }
        i += 1;
    }
    out
}

/// The index of the bracket that closes the one at `open`.
fn closing(tokens: &[Token], open: usize) -> usize {
    let mut depth = 0;
    for (k, token) in tokens.iter().enumerate().skip(open) {
        match token.text.as_str() {
            "{" | "[" | "(" => depth += 1,
            "}" | "]" | ")" => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    tokens.len()
}

/// Rust code without comments, and with the contents of string and character literals blanked
/// (their lines kept), so that only code is read.
fn strip(src: &str) -> String {
    let chars: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    let at = |k: usize| chars.get(k).copied().unwrap_or('\0');
    let keep_lines = |out: &mut String, from: usize, to: usize| {
        out.extend(
            chars[from..to.min(chars.len())]
                .iter()
                .filter(|&&c| c == '\n'),
        );
    };
    while i < chars.len() {
        let c = chars[i];
        let word_before = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let (start, mut depth) = (i, 0);
            while i < chars.len() {
                if at(i) == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if at(i) == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            keep_lines(&mut out, start, i);
        } else if !word_before && (c == 'r' || (c == 'b' && at(i + 1) == 'r')) && {
            let r = if c == 'b' { i + 1 } else { i };
            let mut k = r + 1;
            while at(k) == '#' {
                k += 1;
            }
            at(k) == '"'
        } {
            // A raw string: r"…", r#"…"#, br"…".
            let start = i;
            let r = if c == 'b' { i + 1 } else { i };
            let mut k = r + 1;
            while at(k) == '#' {
                k += 1;
            }
            let hashes = k - r - 1;
            k += 1;
            loop {
                if k >= chars.len() {
                    break;
                }
                if chars[k] == '"' && (1..=hashes).all(|h| at(k + h) == '#') {
                    k += 1 + hashes;
                    break;
                }
                k += 1;
            }
            out.push_str("\"\"");
            keep_lines(&mut out, start, k);
            i = k;
        } else if c == '"' {
            let start = i;
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
            keep_lines(&mut out, start, i);
        } else if c == '\'' && (at(i + 1) == '\\' || at(i + 2) == '\'') {
            // A character literal ('a', '\n', '\''); a lifetime ('a) has no closing quote.
            i += if at(i + 1) == '\\' { 2 } else { 1 };
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}
