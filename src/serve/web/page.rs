//! The page `serve --web` serves: a terminal (xterm.js, vendored under `vendor/xterm/`
//! with its licence and version) and the little script that joins it to the arcade's
//! WebSocket. All of it is compiled into the binary, so a server needs no files.

/// Where the page opens its WebSocket.
pub const SOCKET_PATH: &str = "/ws";

/// One file of the page.
#[derive(Debug, PartialEq, Eq)]
pub struct File {
    /// Its path on the server.
    pub path: &'static str,
    /// Its `Content-Type`.
    pub kind: &'static str,
    /// Its `Cache-Control`: the page and its script are read afresh each time (a new
    /// server's page with an old script would not work); the vendored files may be kept
    /// an hour.
    pub cache: &'static str,
    /// Its bytes.
    pub body: &'static [u8],
}

const FRESH: &str = "no-cache";
const KEPT: &str = "public, max-age=3600";

/// Every file the page is made of.
pub const FILES: &[File] = &[
    File {
        path: "/",
        kind: "text/html; charset=utf-8",
        cache: FRESH,
        body: include_bytes!("page/index.html"),
    },
    File {
        path: "/arcade.js",
        kind: "text/javascript; charset=utf-8",
        cache: FRESH,
        body: include_bytes!("page/arcade.js"),
    },
    File {
        path: "/arcade.css",
        kind: "text/css; charset=utf-8",
        cache: FRESH,
        body: include_bytes!("page/arcade.css"),
    },
    File {
        path: "/xterm.js",
        kind: "text/javascript; charset=utf-8",
        cache: KEPT,
        body: include_bytes!("../../../vendor/xterm/xterm.js"),
    },
    File {
        path: "/xterm.css",
        kind: "text/css; charset=utf-8",
        cache: KEPT,
        body: include_bytes!("../../../vendor/xterm/xterm.css"),
    },
    File {
        path: "/addon-fit.js",
        kind: "text/javascript; charset=utf-8",
        cache: KEPT,
        body: include_bytes!("../../../vendor/xterm/addon-fit.js"),
    },
    File {
        path: "/favicon.svg",
        kind: "image/svg+xml",
        cache: KEPT,
        body: include_bytes!("page/favicon.svg"),
    },
    File {
        path: "/licences.txt",
        kind: "text/plain; charset=utf-8",
        cache: KEPT,
        body: concat!(
            "The page's terminal is xterm.js 6.0.0 with its fit addon 0.11.0, under the MIT licence:\n\n",
            include_str!("../../../vendor/xterm/LICENSE-xterm"),
            "\n\n",
            include_str!("../../../vendor/xterm/LICENSE-addon-fit")
        )
        .as_bytes(),
    },
];

/// The file at `path` (`/index.html` is `/`).
pub fn file(path: &str) -> Option<&'static File> {
    let path = if path == "/index.html" { "/" } else { path };
    FILES.iter().find(|file| file.path == path)
}
