"""Drives Chromium for tests/browser.rs: one JSON command a line on stdin, one JSON answer
a line on stdout. The Rust test keeps the logic (and the SSH side of a class); this file
only speaks WebDriver, through Debian's python3-selenium and chromedriver.

Commands:
  {"open": URL, "size": [W, H], "insecure": BOOL}
                                   start headless Chromium, this window size, load URL
                                   (insecure: accept a self-signed certificate)
  {"window": URL}                  open URL in a new window of the same browser (the
                                   commands then act on it); answers its number
  {"switch": N}                    act on window N (0 is the first)
  {"keys": TEXT}                   type TEXT into the page's terminal (WebDriver key codes
                                   such as "\\ue00c" for Esc are keys)
  {"paste": TEXT}                  paste TEXT into the terminal, as the browser's paste does
  {"click": CSS}                   click the first element CSS selects
  {"text": true}                   the terminal's rows as the page shows them, and its size
  {"note": true}                   the page's note line ("" when hidden)
  {"files": true}                  the names of the files the page offered to download
  {"size": [W, H]}                 resize the window
  {"reload": true}                 load the page again
  {"screenshot": PATH}             save a PNG of the page
  {"quit": true}                   close the browser
Every answer is {"ok": ...} or {"error": "..."}.
"""

import json
import sys
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

ROWS = """
return {
  rows: Array.from(document.querySelectorAll('.xterm-rows > div'),
                   (row) => row.textContent.replace(/\\u00a0/g, ' ')),
  columns: window.arcadeTerminal ? window.arcadeTerminal.cols : 0,
  lines: window.arcadeTerminal ? window.arcadeTerminal.rows : 0,
  font: window.arcadeTerminal ? window.arcadeTerminal.options.fontSize : 0,
};
"""


def start(url, size, profile, insecure):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-extensions",
        # Many windows at once: none is throttled as hidden while another is driven.
        "--disable-background-timer-throttling",
        "--disable-renderer-backgrounding",
        "--disable-backgrounding-occluded-windows",
        "--user-data-dir=" + profile,
        "--window-size=%d,%d" % tuple(size),
    ]:
        options.add_argument(flag)
    if insecure:
        options.add_argument("--ignore-certificate-errors")
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_window_size(*size)
    driver.get(url)
    return driver


def main():
    driver = None
    windows = []
    profile = tempfile.TemporaryDirectory(prefix="ai-arcade-chromium-")
    for line in sys.stdin:
        command = json.loads(line)
        try:
            if "open" in command:
                size = command.get("size", [900, 640])
                insecure = command.get("insecure", False)
                driver = start(command["open"], size, profile.name, insecure)
                windows = [driver.current_window_handle]
                answer = True
            elif "window" in command:
                driver.switch_to.new_window("window")
                windows.append(driver.current_window_handle)
                driver.get(command["window"])
                answer = len(windows) - 1
            elif "switch" in command:
                driver.switch_to.window(windows[command["switch"]])
                answer = True
            elif "keys" in command:
                box = driver.find_element(By.CSS_SELECTOR, ".xterm-helper-textarea")
                box.send_keys(command["keys"])
                answer = True
            elif "paste" in command:
                driver.execute_script(
                    "window.arcadeTerminal.paste(arguments[0])", command["paste"])
                answer = True
            elif "click" in command:
                driver.find_element(By.CSS_SELECTOR, command["click"]).click()
                answer = True
            elif "text" in command:
                answer = driver.execute_script(ROWS)
            elif "note" in command:
                note = driver.find_element(By.ID, "note")
                answer = note.text if note.is_displayed() else ""
            elif "files" in command:
                links = driver.find_elements(By.CSS_SELECTOR, "#files a")
                answer = [link.get_attribute("download") for link in links]
            elif "reload" in command:
                driver.refresh()
                answer = True
            elif "size" in command:
                driver.set_window_size(*command["size"])
                answer = True
            elif "screenshot" in command:
                answer = driver.save_screenshot(command["screenshot"])
            elif "quit" in command:
                if driver:
                    driver.quit()
                print(json.dumps({"ok": True}), flush=True)
                return
            else:
                raise ValueError("unknown command %r" % command)
            print(json.dumps({"ok": answer}), flush=True)
        except Exception as error:  # the test reads it and fails with it
            print(json.dumps({"error": "%s: %s" % (type(error).__name__, error)}), flush=True)
    if driver:
        driver.quit()


if __name__ == "__main__":
    main()
