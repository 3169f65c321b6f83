//! A headless Chromium driven through the DevTools protocol, for `html_pages.rs`: launch,
//! open a page at a width, evaluate, collect console errors and network requests, take a
//! screenshot.

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

pub fn chromium() -> Option<PathBuf> {
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

pub struct Browser {
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
    pub fn launch(exe: &Path) -> Browser {
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

    pub fn call(&mut self, method: &str, params: Value) -> Value {
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

    pub fn read(&mut self) -> Value {
        loop {
            match self.ws.read().expect("DevTools connection lost") {
                Message::Text(t) => return serde_json::from_str(t.as_str()).unwrap(),
                Message::Close(_) => panic!("DevTools closed the connection"),
                _ => continue,
            }
        }
    }

    pub fn wait_event(&mut self, method: &str) {
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

    pub fn eval(&mut self, expression: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        assert!(r.get("exceptionDetails").is_none(), "{expression}: {r}");
        r["result"]["value"].clone()
    }

    /// Opens `page` at `width` px and returns what went wrong (empty when nothing did);
    /// `lang` is the language the page must declare.
    pub fn check(&mut self, page: &Path, width: u32, lang: &str) -> Vec<String> {
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
    pub fn screenshot(&mut self, to: &Path, full: bool) {
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
