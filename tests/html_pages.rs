//! The HTML pages, opened in a real headless Chromium through the DevTools protocol: every
//! image loads, the page asks the network for nothing, logs no error, fits a phone's width
//! (375 px) and a wide screen (1440 px) without horizontal overflow, and its tables sort.
//! The same holds for the French pages (`report --lang fr`, issue 14), which also declare
//! `<html lang="fr">`. Screenshots of `index.html` at both widths, in English and French,
//! are kept as test artifacts in `$COSMOSIM_ARTIFACTS` (default `target/test-artifacts/`).
//!
//! Without Chromium the test says it was skipped, unless `COSMOSIM_REQUIRE_CHROMIUM=1`
//! (set by `.ci/run`), where a missing browser fails it.

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

const WIDTHS: [u32; 2] = [375, 1440];

fn chromium() -> Option<PathBuf> {
    let candidates = ["chromium", "chromium-browser", "google-chrome", "chrome"];
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for c in candidates {
            let p = dir.join(c);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

struct Browser {
    child: Child,
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    session: String,
    events: Vec<Value>,
    _profile: tempfile::TempDir,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Browser {
    fn launch(exe: &Path) -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let mut child = Command::new(exe)
            .args([
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--no-default-browser-check",
                "--hide-scrollbars",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("cannot start chromium");
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(url) = line.split("DevTools listening on ").nth(1) {
                    let _ = tx.send(url.trim().to_string());
                }
            }
        });
        let url = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("chromium did not print its DevTools address");
        let (ws, _) = tungstenite::connect(url.as_str()).expect("cannot reach DevTools");
        let mut b = Browser {
            child,
            ws,
            next_id: 0,
            session: String::new(),
            events: Vec::new(),
            _profile: profile,
        };
        let target = b.call("Target.createTarget", json!({"url": "about:blank"}));
        let attached = b.call(
            "Target.attachToTarget",
            json!({"targetId": target["targetId"], "flatten": true}),
        );
        b.session = attached["sessionId"].as_str().unwrap().to_string();
        for domain in [
            "Page.enable",
            "Network.enable",
            "Runtime.enable",
            "Log.enable",
        ] {
            b.call(domain, json!({}));
        }
        b
    }

    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if !self.session.is_empty() && !method.starts_with("Target.") {
            msg["sessionId"] = json!(self.session);
        }
        self.ws.send(Message::text(msg.to_string())).unwrap();
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            assert!(Instant::now() < deadline, "{method}: no answer");
            let v = self.read();
            if v["id"].as_u64() == Some(id) {
                assert!(v.get("error").is_none(), "{method} failed: {v}");
                return v["result"].clone();
            }
            self.events.push(v);
        }
    }

    fn read(&mut self) -> Value {
        loop {
            match self.ws.read().expect("DevTools connection lost") {
                Message::Text(t) => return serde_json::from_str(t.as_str()).unwrap(),
                Message::Close(_) => panic!("DevTools closed the connection"),
                _ => continue,
            }
        }
    }

    fn wait_event(&mut self, method: &str) {
        if self.events.iter().any(|e| e["method"] == method) {
            return;
        }
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            assert!(Instant::now() < deadline, "no {method} event");
            let v = self.read();
            let hit = v["method"] == method;
            self.events.push(v);
            if hit {
                return;
            }
        }
    }

    fn eval(&mut self, expression: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        assert!(r.get("exceptionDetails").is_none(), "{expression}: {r}");
        r["result"]["value"].clone()
    }

    /// Opens `page` at `width` px and returns what went wrong (empty when nothing did);
    /// `lang` is the language the page must declare.
    fn check(&mut self, page: &Path, width: u32, lang: &str) -> Vec<String> {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600}),
        );
        self.events.clear();
        let url = format!("file://{}", page.display());
        self.call("Page.navigate", json!({"url": url}));
        self.wait_event("Page.loadEventFired");
        let mut problems = Vec::new();
        let state = self.eval(
            "(async () => { await document.fonts.ready; \
             const imgs = Array.from(document.images); \
             await Promise.all(imgs.map(i => i.decode().catch(() => null))); \
             return { images: imgs.map(i => [i.alt, i.complete && i.naturalWidth > 0]), \
               scroll: document.documentElement.scrollWidth, \
               width: document.documentElement.clientWidth, \
               title: document.title, h1: document.querySelectorAll('h1').length, \
               lang: document.documentElement.lang }; })()",
        );
        for img in state["images"].as_array().unwrap() {
            if img[1] != true {
                problems.push(format!(
                    "image not loaded: {}",
                    img[0].as_str().unwrap_or("")
                ));
            }
        }
        if state["scroll"].as_u64() > state["width"].as_u64() {
            problems.push(format!(
                "page wider than the screen at {width} px: {} > {}",
                state["scroll"], state["width"]
            ));
        }
        if state["lang"] != lang {
            problems.push(format!("html lang {} instead of {lang:?}", state["lang"]));
        }
        if state["title"].as_str().unwrap_or("").is_empty() || state["h1"] != 1 {
            problems.push(format!("no title or not one h1: {state}"));
        }
        for e in &self.events {
            match e["method"].as_str() {
                Some("Network.requestWillBeSent") => {
                    let u = e["params"]["request"]["url"].as_str().unwrap_or("");
                    if !(u.starts_with("file://") || u.starts_with("data:")) {
                        problems.push(format!("network request: {u}"));
                    }
                }
                Some("Runtime.exceptionThrown") => problems.push(format!("exception: {e}")),
                Some("Runtime.consoleAPICalled") if e["params"]["type"] == "error" => {
                    problems.push(format!("console error: {e}"))
                }
                Some("Log.entryAdded") if e["params"]["entry"]["level"] == "error" => {
                    problems.push(format!("log error: {}", e["params"]["entry"]["text"]))
                }
                _ => {}
            }
        }
        problems
    }

    /// The viewport, or the whole page when `full` (charts must not be cut).
    fn screenshot(&mut self, to: &Path, full: bool) {
        let mut params = json!({"format": "png", "captureBeyondViewport": full});
        if full {
            let size = self.eval(
                "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]",
            );
            params["clip"] =
                json!({"x": 0, "y": 0, "width": size[0], "height": size[1], "scale": 1});
        }
        let r = self.call("Page.captureScreenshot", params);
        let png = base64::engine::general_purpose::STANDARD
            .decode(r["data"].as_str().unwrap())
            .unwrap();
        assert!(png.starts_with(b"\x89PNG"), "screenshot is not a PNG");
        std::fs::write(to, png).unwrap();
    }
}

fn cosmosim(dir: &Path, args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_cosmosim"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cosmosim {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A small rules repository: two shipped combat scenarios at few trials, one
/// expectations file.
fn small_repo() -> tempfile::TempDir {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    std::fs::create_dir_all(t.join("scenarios/cosmos")).unwrap();
    for name in ["duel", "wounded-ambush"] {
        let text =
            std::fs::read_to_string(root.join(format!("scenarios/cosmos/{name}.toml"))).unwrap();
        let small: String = text
            .lines()
            .map(|l| {
                if l.trim_start().starts_with("trials =") {
                    "trials = 3000".to_string()
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        std::fs::write(t.join(format!("scenarios/cosmos/{name}.toml")), small).unwrap();
    }
    std::fs::create_dir_all(t.join("balance")).unwrap();
    std::fs::write(
        t.join("balance/duel.toml"),
        "title = \"page test\"\nseed = 1\n\n[[expect]]\nname = \"a coin flip less the crit bands\"\n\
         table = \"cosmos-test\"\nparams = { thresholds = \"50\", karma = \"0\" }\n\
         where = { threshold = 50, karma = 0 }\nfigure = \"p_success\"\nbetween = [0.38, 0.40]\n",
    )
    .unwrap();
    d
}

#[test]
fn pages_load_offline_in_chromium_at_phone_and_desktop_widths() {
    let Some(exe) = chromium() else {
        if std::env::var("COSMOSIM_REQUIRE_CHROMIUM").as_deref() == Ok("1") {
            panic!("COSMOSIM_REQUIRE_CHROMIUM=1 but no chromium on PATH");
        }
        eprintln!("SKIPPED: no chromium on PATH (apt-get install chromium to run this test)");
        return;
    };
    let repo = small_repo();
    let t = repo.path();
    cosmosim(
        t,
        &["report", "--trials", "20000", "--out", "out", "--quiet"],
    );
    cosmosim(t, &["compare", "out", "out", "--out", "cmp", "--quiet"]);
    // The French set (issue 14): same pages, French text.
    cosmosim(
        t,
        &[
            "report", "--lang", "fr", "--trials", "20000", "--out", "out-fr", "--quiet",
        ],
    );
    cosmosim(
        t,
        &[
            "compare", "out", "out-fr", "--lang", "fr", "--out", "cmp-fr", "--quiet",
        ],
    );
    let mut pages: Vec<PathBuf> = Vec::new();
    for dir in ["out", "cmp", "out-fr", "cmp-fr"] {
        collect_html(&t.join(dir), &mut pages);
    }
    pages.sort();
    let index = t.join("out/index.html");
    let index_fr = t.join("out-fr/index.html");
    assert!(pages.contains(&index), "no index.html in {pages:?}");
    for must in [
        "out/cosmos/duel/summary.html",
        "out/balance/expect.html",
        "cmp/compare.html",
        "out-fr/index.html",
        "out-fr/cosmos/duel/summary.html",
        "out-fr/balance/expect.html",
        "cmp-fr/compare.html",
    ] {
        assert!(
            pages.contains(&t.join(must)),
            "{must} missing from {pages:?}"
        );
    }
    let mut browser = Browser::launch(&exe);
    let mut problems = Vec::new();
    let lang_of = |page: &Path| {
        if page.starts_with(t.join("out-fr")) || page.starts_with(t.join("cmp-fr")) {
            "fr"
        } else {
            "en"
        }
    };
    for page in &pages {
        for w in WIDTHS {
            for p in browser.check(page, w, lang_of(page)) {
                problems.push(format!("{} @{w}px: {p}", page.display()));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));

    let artifacts = std::env::var_os("COSMOSIM_ARTIFACTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-artifacts"));
    std::fs::create_dir_all(&artifacts).unwrap();
    for w in WIDTHS {
        assert!(browser.check(&index, w, "en").is_empty());
        browser.screenshot(&artifacts.join(format!("index-{w}.png")), false);
        assert!(browser.check(&index_fr, w, "fr").is_empty());
        browser.screenshot(&artifacts.join(format!("index-fr-{w}.png")), false);
    }
    let summary = t.join("out/cosmos/duel/summary.html");
    for w in WIDTHS {
        assert!(browser.check(&summary, w, "en").is_empty());
        browser.screenshot(&artifacts.join(format!("duel-summary-{w}-full.png")), true);
    }

    // The tables sort by a click on their header.
    assert!(browser.check(&summary, 1440, "en").is_empty());
    let sorted = browser.eval(
        "(() => { const t = Array.from(document.querySelectorAll('table'))\
           .find(t => t.tBodies[0] && t.tBodies[0].rows.length > 1); \
         if (!t) return 'no table'; const th = t.querySelector('thead th'); \
         th.click(); const a = th.getAttribute('aria-sort'); th.click(); \
         return a + ',' + th.getAttribute('aria-sort'); })()",
    );
    assert_eq!(sorted, "ascending,descending");
}

fn collect_html(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            collect_html(&p, out);
        } else if p.extension().is_some_and(|x| x == "html") {
            out.push(p);
        }
    }
}

/// The checks themselves can fail: a page that fetches from the network, logs an error,
/// has a broken image and overflows a phone's width is caught on each count.
#[test]
fn the_browser_checks_catch_a_bad_page() {
    let Some(exe) = chromium() else {
        if std::env::var("COSMOSIM_REQUIRE_CHROMIUM").as_deref() == Ok("1") {
            panic!("COSMOSIM_REQUIRE_CHROMIUM=1 but no chromium on PATH");
        }
        eprintln!("SKIPPED: no chromium on PATH");
        return;
    };
    let d = tempfile::tempdir().unwrap();
    let page = d.path().join("bad.html");
    std::fs::write(
        &page,
        "<!DOCTYPE html><html><head><title>bad</title></head><body><h1>bad</h1>\
         <img alt=\"far\" src=\"http://127.0.0.1:9/x.png\">\
         <div style=\"width:2000px\">wide</div>\
         <script>console.error('boom')</script></body></html>",
    )
    .unwrap();
    let mut browser = Browser::launch(&exe);
    let problems = browser.check(&page, 375, "en").join("\n");
    for expected in [
        "image not loaded: far",
        "network request: http://127.0.0.1:9/x.png",
        "console error",
        "page wider than the screen",
        "html lang",
    ] {
        assert!(
            problems.contains(expected),
            "{expected} not caught in:\n{problems}"
        );
    }
}

/// What a hostile file puts in every text it gives: a script, an image and an SVG whose
/// handlers run code, a `javascript:` link, Markdown emphasis, a table pipe and entities.
/// Each payload would mark the page (`window.pwned`, the title `XX`, every cell `99.9%`).
const HOSTILE: &str = "<script>window.pwned=1;document.title=String.fromCharCode(88,88);\
document.querySelectorAll('td').forEach(function(c){c.textContent='99.9%'})</script>\
<img src=x onerror=\"window.pwned=2\"><svg onload=\"window.pwned=3\"></svg>\
[click](javascript:window.pwned=4) **bold** | pipe &amp; &lt;b&gt;";

/// `HOSTILE` in a TOML basic string.
fn toml_str(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Issue 24: scenario titles, questions and side names, expectation names and titles,
/// variant descriptions and headline names reach `summary.html`, `expect.html`,
/// `variants.html` and `index.html`; whatever they hold, no script runs, nothing loads,
/// the pages show the text as typed, and the CSP allows no inline script but the sorter.
#[test]
fn hostile_names_run_no_script_and_read_as_typed() {
    let Some(exe) = chromium() else {
        if std::env::var("COSMOSIM_REQUIRE_CHROMIUM").as_deref() == Ok("1") {
            panic!("COSMOSIM_REQUIRE_CHROMIUM=1 but no chromium on PATH");
        }
        eprintln!("SKIPPED: no chromium on PATH");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let h = toml_str(HOSTILE);
    let duel = std::fs::read_to_string(root.join("scenarios/cosmos/duel.toml")).unwrap();
    let duel: String = duel
        .lines()
        .map(|l| {
            if l.starts_with("title =") {
                format!("title = {h}")
            } else if l.starts_with("question =") {
                format!("question = {h}")
            } else if l.starts_with("side = \"offensive\"") {
                format!("side = {h}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(t.join("duel.toml"), duel).unwrap();
    std::fs::write(
        t.join("expect.toml"),
        format!(
            "title = {h}\nseed = 1\n\n[[expect]]\nname = {h}\ntable = \"cosmos-test\"\n\
             params = {{ thresholds = \"50\", karma = \"0\" }}\n\
             where = {{ threshold = 50, karma = 0 }}\nfigure = \"p_success\"\nbetween = [0.9, 1.0]\n"
        ),
    )
    .unwrap();
    std::fs::write(
        t.join("variants.toml"),
        format!(
            "title = {h}\nquestion = {h}\nseed = 1\n\n[[study]]\ntable = \"cosmos-test\"\n\
             params = {{ thresholds = \"50\", karma = \"0\" }}\n\n[[headline]]\nname = {h}\n\
             table = \"cosmos-test\"\nparams = {{ thresholds = \"50\", karma = \"0\" }}\n\
             figure = \"p_success\"\nwhere = {{ threshold = 50, karma = 0 }}\n\n\
             [variants.narrow_crits]\ndescription = {h}\ncrit_success_to = 5\n"
        ),
    )
    .unwrap();
    cosmosim(
        t,
        &[
            "run",
            "duel.toml",
            "--trials",
            "2000",
            "--out",
            "run",
            "--quiet",
        ],
    );
    // The expectation fails on purpose: its name is then also in the problems list.
    let out = Command::new(env!("CARGO_BIN_EXE_cosmosim"))
        .args(["expect", "expect.toml", "--out", "expect", "--quiet"])
        .current_dir(t)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    cosmosim(
        t,
        &["variants", "variants.toml", "--out", "variants", "--quiet"],
    );
    let mut pages = Vec::new();
    for dir in ["run", "expect", "variants"] {
        collect_html(&t.join(dir), &mut pages);
    }
    pages.sort();
    for must in [
        "run/summary.html",
        "expect/expect.html",
        "variants/variants.html",
    ] {
        assert!(
            pages.contains(&t.join(must)),
            "{must} missing from {pages:?}"
        );
    }
    let mut browser = Browser::launch(&exe);
    let mut problems = Vec::new();
    for page in &pages {
        let html = std::fs::read_to_string(page).unwrap();
        let csp = html
            .split("Content-Security-Policy\" content=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap_or("");
        let scripts = csp
            .split(';')
            .find_map(|d| d.trim().strip_prefix("script-src "))
            .unwrap_or("(none)");
        if !scripts.starts_with("'sha256-") || scripts.contains("unsafe") {
            problems.push(format!("{}: scripts allowed by {scripts}", page.display()));
        }
        // Loading the page also fails on any network request, error or CSP violation
        // a smuggled tag would cause.
        for p in browser.check(page, 1440, "en") {
            problems.push(format!("{}: {p}", page.display()));
        }
        let seen = browser.eval(
            "(() => ({ pwned: window.pwned === undefined ? null : window.pwned, \
               title: document.title, \
               cells: Array.from(document.querySelectorAll('td')).map(c => c.textContent), \
               scripts: document.scripts.length, \
               tags: document.querySelectorAll('main img:not([src^=\"data:\"]), main svg, main script, \
                 a[href^=\"javascript\" i], [onerror], [onload]').length, \
               text: document.body.innerText }))()",
        );
        if !seen["pwned"].is_null() {
            problems.push(format!(
                "{}: a script ran: pwned={}",
                page.display(),
                seen["pwned"]
            ));
        }
        if seen["title"] == "XX" {
            problems.push(format!("{}: a script set the title", page.display()));
        }
        let cells = seen["cells"].as_array().unwrap();
        if !cells.is_empty() && cells.iter().all(|c| c == "99.9%") {
            problems.push(format!("{}: a script rewrote the cells", page.display()));
        }
        if seen["scripts"] != 1 || seen["tags"] != 0 {
            problems.push(format!("{}: smuggled elements: {seen}", page.display()));
        }
        let text = seen["text"].as_str().unwrap_or("");
        let main_page = ["summary.html", "expect.html", "variants.html"]
            .iter()
            .any(|n| page.ends_with(n));
        if main_page && !text.contains(HOSTILE) {
            problems.push(format!(
                "{}: the hostile text is not shown as typed",
                page.display()
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
