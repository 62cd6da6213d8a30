// The page's side of `ai-arcade serve --web`: a terminal joined to the arcade's
// WebSocket. What the terminal sends (keys, pastes, mouse reports) goes to the server
// as binary messages, as an SSH client's would; the size goes as a text message,
// {"resize":[columns,rows]}; the server's binary messages are drawn, and its text
// messages are files to download ({"download":{"name":…,"text":…}}).
"use strict";

const MIN_COLUMNS = 80;
const MIN_ROWS = 24;
// The most the server draws (a larger size is clamped there).
const MAX_COLUMNS = 500;
const MAX_ROWS = 200;
// Tried largest first until 80x24 fits the window.
const FONT_SIZES = [16, 15, 14, 13, 12, 11, 10];

// What a terminal sends for the keys a browser may keep for itself.
const KEYS = {
  F1: "\x1bOP", F2: "\x1bOQ", F3: "\x1bOR", F4: "\x1bOS",
  F5: "\x1b[15~", F6: "\x1b[17~", Tab: "\t", Esc: "\x1b",
};

const status = document.getElementById("status");
const note = document.getElementById("note");
const place = document.getElementById("terminal");
const encoder = new TextEncoder();

const term = new Terminal({
  fontFamily: '"DejaVu Sans Mono", "Cascadia Mono", Menlo, Consolas, monospace',
  fontSize: FONT_SIZES[0],
  scrollback: 0,
  cursorBlink: false,
  theme: { background: "#1e1e1e" },
});
const fit = new FitAddon.FitAddon();
term.loadAddon(fit);
term.open(place);
// For whoever reads the page's terminal from outside (the browser tests, a reader's
// devtools): its size and buffer.
window.arcadeTerminal = term;

const scheme = location.protocol === "https:" ? "wss://" : "ws://";
const socket = new WebSocket(scheme + location.host + "/ws");
socket.binaryType = "arraybuffer";
let open = false;

function send(text) {
  if (open) socket.send(encoder.encode(text));
}

// The largest font at which 80x24 fits, and the terminal as large as the window
// allows (never under 80x24: a smaller window scrolls, and says why).
function resize() {
  let proposed;
  for (const size of FONT_SIZES) {
    if (term.options.fontSize !== size) term.options.fontSize = size;
    proposed = fit.proposeDimensions();
    if (!proposed || (proposed.cols >= MIN_COLUMNS && proposed.rows >= MIN_ROWS)) break;
  }
  if (!proposed) return;
  const columns = Math.min(MAX_COLUMNS, Math.max(MIN_COLUMNS, proposed.cols));
  const rows = Math.min(MAX_ROWS, Math.max(MIN_ROWS, proposed.rows));
  if (columns !== term.cols || rows !== term.rows) term.resize(columns, rows);
  const small = proposed.cols < MIN_COLUMNS || proposed.rows < MIN_ROWS;
  note.hidden = !small;
  // Scrolls only while the window is too small: xterm's hidden input box, left where a
  // larger layout put it, would otherwise give a fitting terminal scrollbars.
  place.style.overflow = small ? "auto" : "hidden";
  if (small) {
    note.textContent = "This window fits " + proposed.cols + "x" + proposed.rows +
      " characters; the arcade needs 80x24. Make the window larger or zoom out " +
      "(Ctrl and -). Until then the page scrolls.";
  }
  if (open) socket.send(JSON.stringify({ resize: [columns, rows] }));
}

// Whatever changes the terminal's room: the window, the note appearing, the list of
// downloads growing a line.
let resizing = null;
new ResizeObserver(() => {
  clearTimeout(resizing);
  resizing = setTimeout(resize, 100);
}).observe(place);

socket.addEventListener("open", () => {
  open = true;
  status.textContent = "connected";
  resize();
  term.focus();
});

socket.addEventListener("message", (event) => {
  if (typeof event.data === "string") {
    offer(JSON.parse(event.data));
  } else {
    term.write(new Uint8Array(event.data));
  }
});

socket.addEventListener("close", () => {
  open = false;
  status.textContent = "disconnected: reload the page to carry on";
  status.className = "gone";
});

term.onData(send);
// Mouse reports in the old X10 form are bytes, not text.
term.onBinary((data) => {
  if (open) socket.send(Uint8Array.from(data, (c) => c.charCodeAt(0)));
});

for (const button of document.querySelectorAll("button[data-key]")) {
  button.addEventListener("click", () => {
    send(KEYS[button.dataset.key]);
    term.focus();
  });
}

// The exports of this tab, kept across a reload (the arcade's session is new then, but
// the student's files are not lost): the newest, within what sessionStorage holds.
const KEPT_EXPORTS = "ai-arcade-exports";
const KEPT_CHARS = 4000000;

function keptExports() {
  try {
    const kept = JSON.parse(sessionStorage.getItem(KEPT_EXPORTS) || "[]");
    return Array.isArray(kept) ? kept.filter(isFile) : [];
  } catch (error) {
    return [];
  }
}

// Never throws: storage may be blocked, and a file too large to keep is only not kept
// (the older ones stay).
function keepExport(file) {
  if (JSON.stringify(file).length > KEPT_CHARS) return;
  const kept = keptExports();
  kept.push(file);
  while (kept.length > 0) {
    const text = JSON.stringify(kept);
    if (text.length <= KEPT_CHARS) {
      try {
        sessionStorage.setItem(KEPT_EXPORTS, text);
        return;
      } catch (error) {
        // Over the browser's quota, or storage blocked: drop the oldest and try again.
      }
    }
    kept.shift();
  }
}

function isFile(file) {
  return file && typeof file.name === "string" && typeof file.text === "string";
}

// A link under the terminal that saves `file` again.
function listExport(file) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([file.text], { type: "text/plain" }));
  link.download = file.name;
  link.textContent = file.name;
  document.getElementById("files").append(link);
  document.getElementById("downloads").hidden = false;
  return link;
}

// A file the arcade exported: downloaded at once, and kept in the footer to save again.
function offer(message) {
  const file = message.download;
  if (!isFile(file)) return;
  listExport(file).click();
  keepExport({ name: file.name, text: file.text });
}

for (const file of keptExports()) listExport(file);

// Ctrl-W closes a browser tab before the page hears it: ask first while connected.
window.addEventListener("beforeunload", (event) => {
  if (open) event.preventDefault();
});
