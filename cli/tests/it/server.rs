//! `grail serve` for the tests that talk to it (`serve.rs` over HTTP, `browser.rs` through
//! a browser): a server of a test's own in a folder of its own, and as much of HTTP/1.1 as
//! it and chromedriver need.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

/// How long the server has to say where it listens.
const WAIT: Duration = Duration::from_secs(30);

/// A folder of the test's own, removed when the test passes (kept, with chromedriver's
/// log, when it fails).
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("grail-serve-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// One request on a connection of its own: the answer's status and body.
pub fn http(
    port: u16,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> std::io::Result<(u16, String)> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(120)))?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut request =
        format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n");
    if method != "GET" && method != "DELETE" {
        request += &format!(
            "Content-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\n",
            body.len()
        );
    }
    request += "\r\n";
    request += &body;
    stream.write_all(request.as_bytes())?;
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let status = (line.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("not an HTTP answer: {line:?}")))?;
    let (mut length, mut chunked) = (None, false);
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        let Some((name, value)) = line.trim_end().split_once(':') else {
            break;
        };
        match name.trim().to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse::<usize>().ok(),
            "transfer-encoding" => chunked = value.trim().eq_ignore_ascii_case("chunked"),
            _ => {}
        }
    }
    let mut body = Vec::new();
    if chunked {
        loop {
            line.clear();
            reader.read_line(&mut line)?;
            let size = line.trim().split(';').next().unwrap_or("");
            let size = usize::from_str_radix(size, 16)
                .map_err(|_| std::io::Error::other(format!("bad chunk size {line:?}")))?;
            if size == 0 {
                break;
            }
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk)?;
            body.extend_from_slice(&chunk[..size]);
        }
    } else if let Some(length) = length {
        body.resize(length, 0);
        reader.read_exact(&mut body)?;
    } else {
        reader.read_to_end(&mut body)?;
    }
    Ok((status, String::from_utf8_lossy(&body).into_owned()))
}

/// `grail serve` on a free port, stopped when dropped.
pub struct Server {
    pub child: Child,
    pub url: String,
    pub port: u16,
}

impl Server {
    pub fn start(dir: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_grail"))
            .arg("serve")
            .current_dir(dir)
            .env_remove("GRAIL_CONTENT")
            .env("XDG_DATA_HOME", dir.join("data"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("grail serve starts");
        let stdout = child.stdout.take().unwrap();
        let (send, said) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = send.send(line);
        });
        let line = said.recv_timeout(WAIT).unwrap_or_default();
        let url = (line.strip_prefix("grail serve: "))
            .and_then(|rest| rest.split_whitespace().next())
            .map(str::to_string);
        let Some(url) = url else {
            let _ = child.kill();
            let mut err = String::new();
            let _ = child.stderr.take().unwrap().read_to_string(&mut err);
            panic!("grail serve said {line:?} (stderr: {err})");
        };
        assert!(line.ends_with("(Ctrl-C stops it)\n"), "{line:?}");
        let port = (url.strip_prefix("http://127.0.0.1:"))
            .and_then(|rest| rest.strip_suffix('/'))
            .and_then(|port| port.parse().ok())
            .unwrap_or_else(|| panic!("not a loopback address with a port: {url}"));
        Server { child, url, port }
    }

    /// A request of the JSON API: its status and its body (as a string when not JSON).
    pub fn request(&self, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
        let (status, body) = http(self.port, method, path, body).expect("grail serve answers");
        let value = serde_json::from_str(&body).unwrap_or(Value::String(body));
        (status, value)
    }

    /// Sends raw bytes: the answer's status and body (status 0: closed without an
    /// answer). With `and_close`, the sending side is closed after the bytes, so a request
    /// cut short ends there instead of waiting for the rest.
    pub fn send(&self, bytes: &[u8], and_close: bool) -> (u16, String) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream.set_read_timeout(Some(WAIT)).unwrap();
        let _ = stream.write_all(bytes);
        if and_close {
            let _ = stream.shutdown(std::net::Shutdown::Write);
        }
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        let text = String::from_utf8_lossy(&answer).to_string();
        let status = (text.split(' ').nth(1))
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let body = (text.split_once("\r\n\r\n"))
            .map(|(_, b)| b.to_string())
            .unwrap_or_default();
        (status, body)
    }

    /// Ctrl-C; the exit status and what it wrote on stderr.
    #[cfg(unix)]
    pub fn stop(mut self) -> (Option<i32>, String) {
        // SAFETY: signals our own child.
        unsafe {
            libc::kill(self.child.id() as i32, libc::SIGINT);
        }
        let status = self.child.wait().unwrap();
        let mut err = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = e.read_to_string(&mut err);
        }
        (status.code(), err)
    }

    /// A GET of the server's JSON API.
    pub fn get(&self, path: &str) -> Value {
        let (status, body) = http(self.port, "GET", path, None).expect("grail serve answers");
        assert_eq!(status, 200, "GET {path}: {body}");
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("GET {path}: {e}: {body}"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
