//! `salta lsp` spoken to as an editor would: the server runs on a thread over an in-memory
//! connection, and each test sends the protocol's messages and reads its answers.

use salta::lsp::lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{Value, json};
use std::time::Duration;

const URI: &str = "file:///tmp/records/game.sgn";

/// The digit swap of tests/edge-cases/slip-digit-swap.sgn (`8. 53-44` for `35-44`), with a
/// place name outside ASCII in front of it.
const SLIPPED: &str = "[Event \"Übungspartie, Jüterbog\"]\n[Result \"*\"]\n\n1. 33-42 83-73 2. 22-33 82-72 3. 31-41 73-63 4. 21-31 81-71 5. 11-21 84-75\n6. 33-43 94-83 7. 41-52 83-74 8. 53-44 92-82 9. 32-41 71-61 10. 52:71 75-64 *\n";

/// A client of a server running on its own thread.
struct Client {
    connection: Connection,
    server: Option<std::thread::JoinHandle<()>>,
    next_id: i32,
    /// Notifications read while waiting for something else.
    pending: Vec<Notification>,
}

impl Client {
    /// A server initialized with these client capabilities and initialization options.
    fn with(capabilities: Value, options: Value) -> (Client, Value) {
        let (server_side, client_side) = Connection::memory();
        let server = std::thread::spawn(move || {
            salta::lsp::serve(&server_side).expect("the server ends cleanly");
        });
        let mut client = Client {
            connection: client_side,
            server: Some(server),
            next_id: 0,
            pending: Vec::new(),
        };
        let result = client.request(
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": capabilities,
                   "initializationOptions": options}),
        );
        client.notify("initialized", json!({}));
        (client, result.expect("initialize succeeds"))
    }

    /// A server for a client that offers nothing special, readings searched at once.
    fn new() -> Client {
        Client::with(json!({}), json!({"readingsDelayMs": 0})).0
    }

    fn notify(&self, method: &str, params: Value) {
        let message = Notification::new(method.to_string(), params);
        self.connection.sender.send(message.into()).unwrap();
    }

    /// Sends a request and waits for its answer: the result, or the error's code and message.
    fn request(&mut self, method: &str, params: Value) -> Result<Value, (i32, String)> {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        let request = Request::new(id.clone(), method.to_string(), params);
        self.connection.sender.send(request.into()).unwrap();
        loop {
            match self.receive() {
                Message::Response(r) if r.id == id => {
                    return r.response_result.map_err(|e| (e.code, e.message));
                }
                Message::Notification(n) => self.pending.push(n),
                other => panic!("unexpected {other:?}"),
            }
        }
    }

    fn receive(&self) -> Message {
        self.connection
            .receiver
            .recv_timeout(Duration::from_secs(60))
            .expect("the server answers within a minute")
    }

    /// The next diagnostics published that satisfy `wanted`.
    fn diagnostics_where(&mut self, uri: &str, wanted: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        loop {
            let n = match self.pending.is_empty() {
                false => self.pending.remove(0),
                true => match self.receive() {
                    Message::Notification(n) => n,
                    other => panic!("unexpected {other:?}"),
                },
            };
            if n.method != "textDocument/publishDiagnostics" || n.params["uri"] != uri {
                continue;
            }
            let list = n.params["diagnostics"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            if wanted(&list) {
                return list;
            }
        }
    }

    fn open(&self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "sgn", "version": 1, "text": text}}),
        );
    }

    fn change(&self, uri: &str, version: i32, changes: Value) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes}),
        );
    }

    fn at(&mut self, method: &str, uri: &str, line: u32, character: u32) -> Value {
        self.request(
            method,
            json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}),
        )
        .unwrap_or_else(|e| panic!("{method}: {e:?}"))
    }

    /// Says shutdown and exit; the server's thread must end.
    fn close(mut self) {
        assert_eq!(self.request("shutdown", Value::Null), Ok(Value::Null));
        self.notify("exit", Value::Null);
        self.server
            .take()
            .unwrap()
            .join()
            .expect("the server thread ends");
    }
}

/// Applies LSP text edits (UTF-16 positions) to a text.
fn apply(text: &str, edits: &[Value]) -> String {
    let offset = |p: &Value| {
        let (line, character) = (
            p["line"].as_u64().unwrap(),
            p["character"].as_u64().unwrap(),
        );
        let start: usize = text
            .split_inclusive('\n')
            .take(line as usize)
            .map(str::len)
            .sum();
        let mut units = 0;
        for (i, c) in text[start..].char_indices() {
            if units >= character || c == '\n' {
                return start + i;
            }
            units += c.len_utf16() as u64;
        }
        text.len()
    };
    let mut edits: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            let r = &e["range"];
            (
                offset(&r["start"]),
                offset(&r["end"]),
                e["newText"].as_str().unwrap(),
            )
        })
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_string();
    for (a, b, new) in edits {
        out.replace_range(a..b, new);
    }
    out
}

/// The code actions the server offers for `diagnostic` of `uri`, at its range.
fn actions_for(client: &mut Client, uri: &str, diagnostic: &Value) -> Value {
    client
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": diagnostic["range"],
                   "context": {"diagnostics": [diagnostic]}}),
        )
        .unwrap()
}

/// A file of the repository, read.
fn repo_file(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

/// The first diagnostic of `uri` that says `text`, once one does (readings come after a pause).
fn diagnostic_saying(client: &mut Client, uri: &str, text: &str) -> Value {
    let says = |d: &Value| d["message"].as_str().unwrap().contains(text);
    let list = client.diagnostics_where(uri, |d| d.iter().any(says));
    list.into_iter().find(says).unwrap()
}

/// The "Repair this game" action among `actions`.
fn repair_action(actions: &Value) -> &Value {
    (actions.as_array().unwrap().iter())
        .find(|a| a["title"].as_str().unwrap().starts_with("Repair this game"))
        .unwrap_or_else(|| panic!("no repair of the whole game: {actions:#}"))
}

/// The labels of a list of completion items or inlay hints.
fn labels(items: &Value) -> Vec<&str> {
    let items = items.as_array().expect("a list");
    items
        .iter()
        .map(|i| i["label"].as_str().expect("a label"))
        .collect()
}

fn replays_clean(text: &str) -> bool {
    use salta::replay::{ReplayOptions, Status, replay};
    salta::notation::parse_str(text).iter().all(|g| {
        g.as_ref()
            .is_ok_and(|g| replay(g, &ReplayOptions::default()).status() == Status::Valid)
    })
}

#[test]
fn initialize_announces_capabilities_and_negotiates_the_encoding() {
    let (client, result) = Client::with(json!({}), json!({}));
    let caps = &result["capabilities"];
    assert_eq!(caps["positionEncoding"], "utf-16");
    assert_eq!(caps["textDocumentSync"], 2, "incremental");
    for capability in [
        "hoverProvider",
        "completionProvider",
        "codeActionProvider",
        "documentSymbolProvider",
        "documentFormattingProvider",
        "foldingRangeProvider",
        "definitionProvider",
        "inlayHintProvider",
    ] {
        assert!(!caps[capability].is_null(), "{capability}");
    }
    assert_eq!(result["serverInfo"]["name"], "salta");
    client.close();
    let offered = json!({"general": {"positionEncodings": ["utf-32", "utf-8", "utf-16"]}});
    let (client, result) = Client::with(offered, json!({}));
    assert_eq!(result["capabilities"]["positionEncoding"], "utf-8");
    client.close();
    // Neovim 0.7 offers clangd's extension instead.
    let (client, result) = Client::with(json!({"offsetEncoding": ["utf-8", "utf-16"]}), json!({}));
    assert_eq!(result["offsetEncoding"], "utf-8");
    client.close();
}

#[test]
fn a_slip_is_published_with_its_code_span_help_and_then_its_readings() {
    let mut client = Client::new();
    client.open(URI, SLIPPED);
    let first = client.diagnostics_where(URI, |d| !d.is_empty());
    let illegal = first
        .iter()
        .find(|d| d["code"] == "salta::illegal-move")
        .expect("the slip is reported");
    assert_eq!(illegal["severity"], 1);
    assert_eq!(illegal["source"], "salta");
    // `53-44` on line 5 (0-based 4), after "6. … 8. ".
    let column = SLIPPED.lines().nth(4).unwrap().find("53-44").unwrap() as u64;
    assert_eq!(
        illegal["range"]["start"],
        json!({"line": 4, "character": column})
    );
    assert_eq!(
        illegal["range"]["end"],
        json!({"line": 4, "character": column + 5})
    );
    let message = illegal["message"].as_str().unwrap();
    assert!(message.contains("53-44 is not a legal move"), "{message}");
    assert!(message.contains("help: legal moves here"), "{message}");
    // Then, the typing having paused, the readings.
    let later = client.diagnostics_where(URI, |d| {
        d.iter().any(|d| {
            d["message"]
                .as_str()
                .unwrap()
                .contains("did you mean 35-44")
        })
    });
    assert_eq!(later.len(), 1, "{later:#?}");
    client.close();
}

#[test]
fn the_preferred_code_action_mends_the_slip() {
    let mut client = Client::new();
    client.open(URI, SLIPPED);
    let diagnostics = client.diagnostics_where(URI, |d| !d.is_empty());
    let range = diagnostics[0]["range"].clone();
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": URI}, "range": range,
                   "context": {"diagnostics": diagnostics}}),
        )
        .unwrap();
    let actions = actions.as_array().unwrap();
    let preferred: Vec<&Value> = actions
        .iter()
        .filter(|a| a["isPreferred"] == true)
        .collect();
    assert_eq!(preferred.len(), 1, "{actions:#?}");
    let best = preferred[0];
    assert_eq!(best["kind"], "quickfix");
    assert!(
        best["title"]
            .as_str()
            .unwrap()
            .contains("35-44 (digits swapped)")
    );
    let edits = best["edit"]["changes"][URI].as_array().unwrap();
    let mended = apply(SLIPPED, edits);
    assert_eq!(mended, SLIPPED.replace("8. 53-44", "8. 35-44"));
    assert!(replays_clean(&mended));
    // "Repair this game" writes the game as `salta repair` does, with its comment.
    let repair = actions
        .iter()
        .find(|a| a["title"].as_str().unwrap().starts_with("Repair this game"))
        .expect("a repair action");
    let repaired = apply(SLIPPED, repair["edit"]["changes"][URI].as_array().unwrap());
    assert!(
        repaired.contains("35-44 {was 53-44: digits swapped}"),
        "{repaired}"
    );
    assert!(replays_clean(&repaired));
    // And the tag for a source numbered from Red's side.
    let numbering = actions
        .iter()
        .find(|a| {
            a["title"]
                .as_str()
                .unwrap()
                .starts_with("Add [Numbering \"red\"]")
        })
        .expect("a numbering action");
    let renumbered = apply(
        SLIPPED,
        numbering["edit"]["changes"][URI].as_array().unwrap(),
    );
    assert!(renumbered.contains("[Result \"*\"]\n[Numbering \"red\"]\n\n1. 33-42"));
    // The edit applied through didChange clears the diagnostics.
    let changes: Vec<Value> = edits
        .iter()
        .map(|e| json!({"range": e["range"], "text": e["newText"]}))
        .collect();
    client.change(URI, 2, json!(changes));
    client.diagnostics_where(URI, |d| d.is_empty());
    client.close();
}

#[test]
fn incremental_changes_recheck_the_touched_game_and_agree_with_a_fresh_reading() {
    let mut client = Client::new();
    let games = format!(
        "{SLIPPED}\n{}\n{SLIPPED}",
        SLIPPED.replace("53-44", "35-44")
    );
    client.open(URI, &games);
    let before = client.diagnostics_where(URI, |d| d.len() == 2);
    // Break the second game (line 10, 0-based 9) by typing a move over its first.
    let line = 9;
    assert!(games.lines().nth(line).unwrap().starts_with("1. 33-42"));
    client.change(
        URI,
        2,
        json!([{"range": {"start": {"line": line, "character": 3}, "end": {"line": line, "character": 8}},
                "text": "33-55"}]),
    );
    let after = client.diagnostics_where(URI, |d| d.len() >= 3);
    assert!(
        after
            .iter()
            .any(|d| d["range"]["start"]["line"] == line as u64)
    );
    // The first game's findings did not move; the third's are where a fresh server puts them.
    // (Ranges and codes: the texts gain their readings once the typing pauses, which a slow
    // machine may reach between the two publications.)
    let strip = |list: &[Value]| -> Vec<Value> {
        list.iter()
            .map(|d| json!([d["range"], d["code"]]))
            .collect()
    };
    assert_eq!(strip(&before[..1]), strip(&after[..1]));
    let edited = games
        .replacen("1. 33-42", "1. 33-55", 2)
        .replacen("1. 33-55", "1. 33-42", 1);
    let mut fresh = Client::new();
    fresh.open(URI, &edited);
    let expected = fresh.diagnostics_where(URI, |d| d.len() >= 3);
    assert_eq!(strip(&after), strip(&expected));
    fresh.close();
    client.close();
}

#[test]
fn hover_shows_the_position_the_side_to_move_and_the_notations() {
    let mut client = Client::new();
    let text = std::fs::read_to_string("corpus/historical/krone-grotewold-1901.sgn").unwrap();
    client.open(URI, &text);
    // `7. j4:h6`: Green's first jump.
    let (line, column) = text
        .lines()
        .enumerate()
        .find_map(|(i, l)| l.find("j4:h6").map(|c| (i as u32, c as u32)))
        .unwrap();
    let hover = client.at("textDocument/hover", URI, line, column + 2);
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(shown.contains("**7. j4:h6**"), "{shown}");
    assert!(shown.contains("Red to move, move 7."), "{shown}");
    assert!(shown.contains("A jump was compulsory"), "{shown}");
    assert!(
        shown.contains("numeric `45:65`") || shown.contains("numeric `"),
        "{shown}"
    );
    assert!(shown.contains("algebraic `j4:h6`"), "{shown}");
    assert!(shown.contains("Green sun"), "{shown}");
    assert!(shown.contains("```text"), "a diagram: {shown}");
    // A tag says what it means.
    let hover = client.at("textDocument/hover", URI, 6, 3);
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(shown.contains("[Margin]"), "{shown}");
    // Between moves: nothing.
    assert_eq!(client.at("textDocument/hover", URI, 8, 0), Value::Null);
    client.close();
}

#[test]
fn completion_offers_the_legal_moves_compulsory_jumps_first_and_the_next_number() {
    let mut client = Client::new();
    let text = "[Setup \"G/-,-,-,-,-,-,-,-,-,-,44,-,-,-,-/55,-,-,-,-,-,-,-,-,-,-,-,-,-,-\"]\n\n1. ";
    client.open(URI, text);
    let items = client.at("textDocument/completion", URI, 2, 3);
    let shown = labels(&items);
    assert_eq!(shown.first(), Some(&"44:65"), "{shown:?}");
    let mut sorted: Vec<(&str, &str)> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["sortText"].as_str().unwrap(),
                i["label"].as_str().unwrap(),
            )
        })
        .collect();
    sorted.sort();
    assert_eq!(sorted[0].1, "44:65", "the jump first: {sorted:?}");
    // In the standard game, after Green's and Red's first moves: Green's moves and "2.".
    client.change(URI, 2, json!([{"text": "1. 33-43 83-73 "}]));
    let items = client.at("textDocument/completion", URI, 0, 15);
    let shown = labels(&items);
    assert!(shown.contains(&"2."), "{shown:?}");
    assert!(shown.contains(&"43-53"), "{shown:?}");
    // A half-typed move is replaced whole.
    client.change(URI, 3, json!([{"text": "1. 33-43 83-73 2. 43-5"}]));
    let items = client.at("textDocument/completion", URI, 0, 22);
    let item = items
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == "43-53")
        .expect("43-53 offered");
    assert_eq!(item["textEdit"]["range"]["start"]["character"], 18);
    client.close();
}

#[test]
fn symbols_folding_formatting_definition_and_hints() {
    let (mut client, _) =
        Client::with(json!({}), json!({"inlayHints": true, "readingsDelayMs": 0}));
    let text = "[Green \"Krone\"]\n[Red \"Grotewold\"]\n[Date \"1901.??.??\"]\n[Result \"*\"]\n\n1. 33-43   83-73 (1... 83-74\n2. 43-53) 2. 43-53 73-63 *\n\n\n1. e3-f4 *\n";
    client.open(URI, text);
    let symbols = client
        .request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": URI}}),
        )
        .unwrap();
    let symbols = symbols.as_array().unwrap();
    assert_eq!(symbols.len(), 2);
    assert_eq!(symbols[0]["name"], "1. Krone – Grotewold");
    assert_eq!(symbols[0]["detail"], "1901.??.?? · *");
    assert_eq!(symbols[0]["children"][0]["name"], "(1... 83-74 …)");
    assert_eq!(symbols[1]["name"], "game 2");
    let folds = client
        .request(
            "textDocument/foldingRange",
            json!({"textDocument": {"uri": URI}}),
        )
        .unwrap();
    let folds: Vec<(u64, u64)> = folds
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["startLine"].as_u64().unwrap(),
                f["endLine"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(folds, [(0, 6), (5, 6)]);
    let edits = client
        .request(
            "textDocument/formatting",
            json!({"textDocument": {"uri": URI}, "options": {"tabSize": 4, "insertSpaces": true}}),
        )
        .unwrap();
    let formatted = apply(text, edits.as_array().unwrap());
    let canonical: Vec<String> = salta::notation::parse_str(text)
        .iter()
        .map(|g| {
            let g = g.as_ref().unwrap();
            let options = salta::notation::WriteOptions::default().notation(g.notation());
            salta::notation::write_game(g, &options)
        })
        .collect();
    assert_eq!(formatted, canonical.join("\n"));
    assert!(
        formatted.contains("1. e3-f4 *"),
        "algebraic kept: {formatted}"
    );
    // From `2. 43-53` (Green's sun on 43) to where that piece last moved, `1. 33-43`.
    let found = client.at("textDocument/definition", URI, 6, 14);
    assert_eq!(found["range"]["start"], json!({"line": 5, "character": 3}));
    let hints = client
        .request(
            "textDocument/inlayHint",
            json!({"textDocument": {"uri": URI},
                   "range": {"start": {"line": 0, "character": 0}, "end": {"line": 7, "character": 0}}}),
        )
        .unwrap();
    let shown = labels(&hints);
    assert_eq!(shown[..4], ["1G", "2R", "3G", "4R"]);
    assert!(shown[4].starts_with("to go: Green"), "{shown:?}");
    client.close();
}

#[test]
fn bad_input_gets_answers_never_a_panic_or_a_hang() {
    let mut client = Client::new();
    // An unclosed comment and tag, a half-typed move, a binary file's bytes, a long line.
    let binary: String = (0u8..=255).map(char::from).collect();
    let long = "1. 33-43 ".repeat(20_000);
    for (n, text) in [
        "[Event \"open",
        "1. 33-43 {never closed",
        "1. 33-4",
        binary.as_str(),
        long.as_str(),
        "",
    ]
    .iter()
    .enumerate()
    {
        let uri = format!("file:///tmp/bad{n}.sgn");
        client.open(&uri, text);
        for (line, character) in [(0, 0), (0, 5), (0, 9999), (99, 3), (u32::MAX, u32::MAX)] {
            for method in [
                "textDocument/hover",
                "textDocument/completion",
                "textDocument/definition",
            ] {
                client.at(method, &uri, line, character);
            }
        }
        for method in ["textDocument/documentSymbol", "textDocument/foldingRange"] {
            client
                .request(method, json!({"textDocument": {"uri": uri}}))
                .unwrap();
        }
        // Changes past the end, inverted, and out of order.
        client.change(
            &uri,
            5,
            json!([{"range": {"start": {"line": 50, "character": 0}, "end": {"line": 0, "character": 2}}, "text": "é{"},
                   {"range": {"start": {"line": 0, "character": 1}, "end": {"line": 0, "character": 1}}, "text": "\u{1d11e}"}]),
        );
        client.change(&uri, 3, json!([{"range": {"start": {"line": 0, "character": 3}, "end": {"line": 0, "character": 2}}, "text": ")"}]));
        client
            .request(
                "textDocument/codeAction",
                json!({"textDocument": {"uri": uri},
                       "range": {"start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}},
                       "context": {"diagnostics": []}}),
            )
            .unwrap();
    }
    // A document never opened, parameters that do not read, a method not served.
    let unknown = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": "file:///nowhere.sgn"}, "position": {"line": 0, "character": 0}}),
    );
    assert!(unknown.is_err());
    let garbled = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": URI}, "position": "here"}),
    );
    assert!(garbled.is_err());
    let unsupported = client.request("textDocument/rename", json!({"textDocument": {"uri": URI}}));
    assert_eq!(unsupported.unwrap_err().0, -32601);
    client.close();
}

#[test]
fn a_garbled_move_is_one_error_shown_as_written_and_completed_from_the_position_before_it() {
    let mut client = Client::new();
    // `S` for `5`: the reader keeps the token as written and reads on.
    let text = "[Result \"*\"]\n\n1. 33-43 83-73 2. 43-S3 73-63 3. 32-42 *\n";
    client.open(URI, text);
    let diagnostics = client.diagnostics_where(URI, |d| !d.is_empty());
    let garbled: Vec<&Value> = diagnostics
        .iter()
        .filter(|d| d["code"] == "sgn::garbled-move")
        .collect();
    // The reader's warning and the replay's error are one diagnostic, an error, on the token.
    assert_eq!(garbled.len(), 1, "{diagnostics:#?}");
    assert_eq!(garbled[0]["severity"], 1);
    assert_eq!(
        garbled[0]["range"]["start"],
        json!({"line": 2, "character": 18})
    );
    assert_eq!(
        garbled[0]["range"]["end"],
        json!({"line": 2, "character": 23})
    );
    let hover = client.at("textDocument/hover", URI, 2, 20);
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(
        shown.contains("**2. 43-S3** is not a move as written"),
        "{shown}"
    );
    assert!(shown.contains("43-53"), "the legal moves: {shown}");
    // The diagram names the empty squares as this numeric record does, and the side to move
    // is said once.
    assert!(shown.contains(" 53 "), "{shown}");
    assert_eq!(shown.matches("to move").count(), 1, "{shown}");
    // Completion at its end offers the moves of the position before it, replacing it whole.
    let items = client.at("textDocument/completion", URI, 2, 23);
    let item = items
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == "43-53")
        .expect("43-53 offered");
    assert_eq!(item["textEdit"]["range"]["start"]["character"], 18);
    // Formatting keeps it as written; the outline and the actions answer.
    let edits = client
        .request(
            "textDocument/formatting",
            json!({"textDocument": {"uri": URI}, "options": {"tabSize": 4, "insertSpaces": true}}),
        )
        .unwrap();
    let formatted = apply(text, edits.as_array().map_or(&[][..], |e| &e[..]));
    // (the move after it numbered, so that no reading joins the two: decision 125).
    assert!(formatted.contains("2. 43-S3 2... 73-63"), "{formatted}");
    client
        .request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": URI}}),
        )
        .unwrap();
    // Repair reads it by its characters: the best reading is the preferred fix, in its place.
    let actions = actions_for(&mut client, URI, garbled[0]);
    let best = (actions.as_array().unwrap().iter())
        .find(|a| a["isPreferred"] == true)
        .unwrap_or_else(|| panic!("no preferred fix: {actions:#}"));
    let mended = apply(text, best["edit"]["changes"][URI].as_array().unwrap());
    assert_eq!(mended, text.replace("43-S3", "43-33"), "{}", best["title"]);
    assert!(replays_clean(&mended));
    client.close();
}

#[test]
fn a_game_a_syntax_error_broke_is_checked_and_mended_before_the_error() {
    let mut client = Client::new();
    let text =
        std::fs::read_to_string("tests/edge-cases/syntax-error-after-illegal-move.sgn").unwrap();
    client.open(URI, &text);
    // The illegal move before the error, then the error; the readings follow.
    let diagnostics = client.diagnostics_where(URI, |d| {
        d.iter()
            .any(|d| d["message"].as_str().unwrap().contains("did you mean"))
    });
    let codes: Vec<&str> = diagnostics
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(
        codes,
        ["salta::illegal-move", "sgn::unmatched-paren"],
        "{diagnostics:#?}"
    );
    let actions = actions_for(&mut client, URI, &diagnostics[0]);
    let actions = actions.as_array().unwrap();
    let best = actions
        .iter()
        .find(|a| a["isPreferred"] == true)
        .unwrap_or_else(|| panic!("no preferred fix: {actions:#?}"));
    let mended = apply(&text, best["edit"]["changes"][URI].as_array().unwrap());
    assert!(mended.contains("2. 34-44 84-75"), "{mended}");
    // Not repaired whole: its end was not read.
    assert!(
        !actions
            .iter()
            .any(|a| a["title"].as_str().unwrap().starts_with("Repair this game")),
        "{actions:#?}"
    );
    client.close();
}

/// Every request the server serves, at a place in `uri`, each answered (an error is an answer).
fn ask_everything(client: &mut Client, uri: &str, line: u32, character: u32) {
    for method in [
        "textDocument/hover",
        "textDocument/completion",
        "textDocument/definition",
    ] {
        client.at(method, uri, line, character);
    }
    for method in ["textDocument/documentSymbol", "textDocument/foldingRange"] {
        client
            .request(method, json!({"textDocument": {"uri": uri}}))
            .unwrap();
    }
    let place =
        json!({"start": {"line": line, "character": 0}, "end": {"line": line + 1, "character": 0}});
    for (method, params) in [
        (
            "textDocument/formatting",
            json!({"textDocument": {"uri": uri},
            "options": {"tabSize": 4, "insertSpaces": true}}),
        ),
        (
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": place,
            "context": {"diagnostics": []}}),
        ),
        (
            "textDocument/inlayHint",
            json!({"textDocument": {"uri": uri}, "range": place}),
        ),
    ] {
        client.request(method, params).unwrap();
    }
}

#[test]
fn ten_megabytes_of_games_or_of_binary_bytes_are_answered() {
    let mut client = Client::with(json!({}), json!({"inlayHints": true})).0;
    // The synthetic corpus repeated to 10 MB: about 5,000 games.
    let mut one = String::new();
    let mut paths: Vec<_> = std::fs::read_dir("corpus/synthetic")
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    for path in paths {
        one.push_str(std::fs::read_to_string(path).unwrap().trim_end());
        one.push_str("\n\n");
    }
    let games = one.repeat(10_000_000 / one.len() + 1);
    assert!(games.len() >= 10_000_000);
    let uri = "file:///tmp/big.sgn";
    client.open(uri, &games);
    client.diagnostics_where(uri, |_| true);
    // A line of moves about the middle.
    let middle = (games.lines().enumerate())
        .skip(games.lines().count() / 2)
        .find(|(_, l)| l.starts_with(|c: char| c.is_ascii_digit()) && l.contains('-'))
        .unwrap()
        .0 as u32;
    ask_everything(&mut client, uri, middle, 4);
    // A digit changed in the middle is found, and changed back, cleared.
    let line = games.lines().nth(middle as usize).unwrap();
    let (column, digit) = line
        .char_indices()
        .skip(3)
        .find(|(_, c)| c.is_ascii_digit())
        .unwrap();
    let wrong = if digit == '9' { "1" } else { "9" };
    let at = |c: usize| json!({"line": middle, "character": c});
    let on_the_line = |d: &[Value]| {
        d.iter()
            .any(|d| d["severity"] == 1 && d["range"]["start"]["line"] == middle)
    };
    client.change(
        uri,
        2,
        json!([{"range": {"start": at(column), "end": at(column + 1)}, "text": wrong}]),
    );
    client.diagnostics_where(uri, on_the_line);
    client.change(
        uri,
        3,
        json!([{"range": {"start": at(column), "end": at(column + 1)}, "text": digit.to_string()}]),
    );
    client.diagnostics_where(uri, |d| !on_the_line(d));
    // 10 MB of bytes that are no text (a binary file opened by mistake), as the editor sends
    // them: invalid UTF-8 replaced, NULs and control characters kept, few line breaks.
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let bytes: Vec<u8> = (0..10_000_000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect();
    let binary = String::from_utf8_lossy(&bytes).into_owned();
    let uri = "file:///tmp/binary.sgn";
    client.open(uri, &binary);
    client.diagnostics_where(uri, |_| true);
    ask_everything(&mut client, uri, 1000, 7);
    ask_everything(&mut client, uri, 0, 0);
    client.close();
}

#[test]
fn the_preferred_fix_of_every_kind_of_slip_mends_its_record() {
    use salta::replay::{ReplayOptions, replay};
    let mut client = Client::new();
    let mut paths: Vec<_> = std::fs::read_dir("tests/edge-cases")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("slip-")
        })
        .collect();
    paths.sort();
    assert!(paths.len() >= 10);
    let mut mended_records = 0;
    for (n, path) in paths.iter().enumerate() {
        let text = std::fs::read_to_string(path).unwrap();
        let uri = format!("file:///tmp/slip{n}.sgn");
        client.open(&uri, &text);
        let diagnostics = client.diagnostics_where(&uri, |d| !d.is_empty());
        let broken = diagnostics
            .iter()
            .find(|d| d["severity"] == 1)
            .unwrap_or_else(|| panic!("{}: no error in {diagnostics:#?}", path.display()));
        let actions = actions_for(&mut client, &uri, broken);
        let Some(best) = actions
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["isPreferred"] == true)
        else {
            panic!("{}: no preferred fix among {actions:#}", path.display());
        };
        let mended = apply(
            &text,
            best["edit"]["changes"][uri.as_str()].as_array().unwrap(),
        );
        let game = salta::notation::parse_str(&mended)
            .remove(0)
            .expect("the mended record reads");
        let breaks: Vec<String> = replay(&game, &ReplayOptions::default())
            .findings()
            .iter()
            .filter(|f| salta::repair::breaks_main_line(f))
            .map(|f| f.message.clone())
            .collect();
        assert!(
            breaks.is_empty()
                || breaks[0] != broken["message"].as_str().unwrap().lines().next().unwrap(),
            "{}: {} left {breaks:?}\n{mended}",
            path.display(),
            best["title"]
        );
        mended_records += 1;
    }
    assert_eq!(mended_records, paths.len());
    client.close();
}

/// A page OCR read badly, which the search reading one break at a time loses: once the typing
/// pauses, every error has a reading, the one `salta repair` writes (the page read whole at
/// once, decision 202).
#[test]
fn a_page_that_breaks_often_has_a_reading_at_every_break() {
    let page = repo_file("tests/ocr/medium-page-2.sgn");
    let mut client = Client::new();
    client.open(URI, &page);
    let read = |d: &Value| d["message"].as_str().unwrap().contains("did you mean");
    let errors = |list: &[Value]| -> Vec<Value> {
        list.iter()
            .filter(|d| d["severity"] == 1)
            .cloned()
            .collect()
    };
    let all = client.diagnostics_where(URI, |d| {
        let errors = errors(d);
        errors.len() > 50 && errors.iter().all(read)
    });
    // `$4575` is read as `salta repair` reads it.
    let garbled = errors(&all)
        .into_iter()
        .find(|d| d["message"].as_str().unwrap().contains("$4575"))
        .expect("$4575 breaks");
    let message = garbled["message"].as_str().unwrap();
    assert!(message.contains("did you mean 54:75"), "{message}");
    // The page repaired whole, as `salta repair` repairs it with its default limit of edits
    // (the editor allowed three, so a page of a hundred breaks was never offered it).
    let actions = actions_for(&mut client, URI, &garbled);
    let whole = repair_action(&actions);
    // Its title, a menu entry, names a few readings and counts the rest.
    let title = whole["title"].as_str().unwrap();
    assert!(title.len() < 400 && title.ends_with(" more)"), "{title}");
    let mended = apply(&page, whole["edit"]["changes"][URI].as_array().unwrap());
    assert!(replays_clean(&mended), "{mended}");
    client.close();
}

/// A move number glued before its move with a dash and taken for the move's first square
/// (`12-31-41.` for `12. 31-41`, decision 206): the quick fix writes the whole word anew with
/// its number, where it once replaced only `12-31` and left `31-41-41.`.
#[test]
fn a_move_read_with_the_text_after_it_is_mended_word_and_all() {
    let source = repo_file("tests/ocr/medium-page-6-source.sgn");
    let page = source.replacen("12. 31-41", "12-31-41.", 1);
    let mut client = Client::new();
    client.open(URI, &page);
    let broken = diagnostic_saying(&mut client, URI, "did you mean 31-41");
    let actions = actions_for(&mut client, URI, &broken);
    let best = (actions.as_array().unwrap().iter())
        .find(|a| a["isPreferred"] == true)
        .unwrap_or_else(|| panic!("no preferred fix among {actions:#}"));
    let mended = apply(&page, best["edit"]["changes"][URI].as_array().unwrap());
    assert_eq!(mended, source);
    client.close();
}

/// "Repair this game" on a record numbered from Red's side writes it as `salta repair` does: in
/// its own numbers, under its tag (it wrote the standard numbers, the tag dropped, under `{was
/// …}` comments that quote the record's own numbers).
#[test]
fn repair_this_game_keeps_a_record_numbered_from_reds_side_in_its_numbers() {
    let record = repo_file("tests/edge-cases/red-numbering-digit-swap.sgn");
    let mut client = Client::new();
    client.open(URI, &record);
    let broken = diagnostic_saying(&mut client, URI, "did you mean 44-54");
    let actions = actions_for(&mut client, URI, &broken);
    let whole = repair_action(&actions);
    let mended = apply(&record, whole["edit"]["changes"][URI].as_array().unwrap());
    assert!(mended.contains("[Numbering \"red\"]"), "{mended}");
    assert!(mended.contains("3. 84-74 44-54"), "{mended}");
    assert!(replays_clean(&mended), "{mended}");
    client.close();
}
