#!/usr/bin/env python3
"""Drives a headless Chromium through the DevTools protocol for the inspector's browser tests (stdlib only).

Reads a JSON list of commands on stdin, runs them in one fresh browser (its own temporary profile, no sandbox
needed), and prints one JSON object: {"results": [...], "error": null or "why", "dialogs": N, "exceptions": [...]}.

    echo '[{"open": "http://127.0.0.1:8123/?token=…"},
           {"wait": "document.body.dataset.shown === \\"1\\"", "timeout": 10},
           {"eval": "document.getElementById(\\"diff\\").textContent"}]' \\
      | python3 Scripts/inspector_browser.py --chromium chromium

Commands: {"open": URL}, {"eval": JS} (its value), {"wait": JS, "timeout": S} (until truthy; fails after S
seconds), {"key": "ArrowDown"}, {"type": TEXT, "into": "#css-selector"}, {"screenshot": PATH, "width": W,
"height": H}, {"sleep": S} (at most 5). Every wait is bounded; the browser only ever talks to the URLs given.
"""

import argparse
import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request


class WebSocket:
    """A minimal RFC 6455 client: text frames out (masked), text frames in, pings answered."""

    def __init__(self, host, port, path, timeout):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise RuntimeError("the DevTools socket closed during the handshake")
            head += chunk
        head, self.pending = head.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise RuntimeError("DevTools refused the WebSocket: " + head.decode(errors="replace"))

    def send(self, text):
        payload = text.encode()
        header = bytes([0x81])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        elif len(payload) < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(payload))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(payload))
        mask = os.urandom(4)
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def _read(self, count):
        while len(self.pending) < count:
            chunk = self.sock.recv(max(65536, count - len(self.pending)))
            if not chunk:
                raise RuntimeError("the DevTools socket closed")
            self.pending += chunk
        data, self.pending = self.pending[:count], self.pending[count:]
        return data

    def receive(self):
        message = b""
        while True:
            first, second = self._read(2)
            opcode, length = first & 0x0F, second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read(8))[0]
            mask = self._read(4) if second & 0x80 else None
            data = self._read(length)
            if mask:
                data = bytes(byte ^ mask[index % 4] for index, byte in enumerate(data))
            if opcode == 0x9:  # ping
                self.sock.sendall(bytes([0x8A, 0x80 | len(data)]) + b"\0\0\0\0" + data)
                continue
            if opcode == 0x8:
                raise RuntimeError("DevTools closed the WebSocket")
            message += data
            if first & 0x80:
                return message.decode()


class Browser:
    def __init__(self, chromium, timeout=30):
        self.profile = tempfile.mkdtemp(prefix="inspector-chromium-")
        self.process = subprocess.Popen(
            [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--remote-debugging-address=127.0.0.1",
             "--remote-debugging-port=0", f"--user-data-dir={self.profile}", "--window-size=1400,900",
             "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.monotonic() + timeout
        port = None
        while time.monotonic() < deadline:
            if os.path.exists(port_file):
                lines = open(port_file).read().split("\n")
                if lines and lines[0].strip().isdigit():
                    port = int(lines[0])
                    break
            if self.process.poll() is not None:
                raise RuntimeError(f"chromium exited with status {self.process.returncode} before it was ready")
            time.sleep(0.05)
        if port is None:
            raise RuntimeError(f"chromium wrote no DevToolsActivePort within {timeout} s")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as response:
            targets = json.load(response)
        page = next(target for target in targets if target.get("type") == "page")
        path = "/" + page["webSocketDebuggerUrl"].split("/", 3)[3]
        self.socket = WebSocket("127.0.0.1", port, path, timeout)
        self.next_id = 0
        self.dialogs = 0
        self.exceptions = []
        self.call("Page.enable")
        self.call("Runtime.enable")

    def call(self, method, params=None, timeout=30):
        self.next_id += 1
        ident = self.next_id
        self.socket.send(json.dumps({"id": ident, "method": method, "params": params or {}}))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.socket.sock.settimeout(max(0.1, deadline - time.monotonic()))
            message = json.loads(self.socket.receive())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error'].get('message')}")
                return message.get("result", {})
            self.event(message)
        raise RuntimeError(f"{method}: no answer within {timeout} s")

    def event(self, message):
        method = message.get("method")
        if method == "Page.javascriptDialogOpening":
            self.dialogs += 1
            self.socket.send(json.dumps({"id": 0, "method": "Page.handleJavaScriptDialog",
                                         "params": {"accept": False}}))
        elif method == "Runtime.exceptionThrown":
            details = message["params"]["exceptionDetails"]
            self.exceptions.append(details.get("exception", {}).get("description") or details.get("text"))

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError("eval failed: " + json.dumps(result["exceptionDetails"])[:500])
        return result["result"].get("value")

    def run(self, command):
        if "open" in command:
            self.call("Page.navigate", {"url": command["open"]})
            return None
        if "eval" in command:
            return self.evaluate(command["eval"])
        if "wait" in command:
            timeout = min(float(command.get("timeout", 10)), 60)
            deadline = time.monotonic() + timeout
            value = None
            while time.monotonic() < deadline:
                try:
                    value = self.evaluate(command["wait"])
                except RuntimeError as error:
                    value = str(error)
                if value is True:
                    return True
                time.sleep(0.05)
            raise RuntimeError(f"timed out after {timeout} s waiting for {command['wait']} (last: {value!r})")
        if "key" in command:
            key = command["key"]
            codes = {"ArrowDown": 40, "ArrowUp": 38, "Home": 36, "End": 35, "Enter": 13, "Escape": 27}
            for kind in ("keyDown", "keyUp"):
                self.call("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": key,
                                                     "windowsVirtualKeyCode": codes.get(key, 0)})
            return None
        if "type" in command:
            selector = json.dumps(command["into"])
            self.evaluate(f"(() => {{ const e = document.querySelector({selector}); e.focus(); e.value = ''; }})()")
            self.call("Input.insertText", {"text": command["type"]})
            return None
        if "screenshot" in command:
            self.call("Emulation.setDeviceMetricsOverride", {"width": command.get("width", 1400),
                                                             "height": command.get("height", 900),
                                                             "deviceScaleFactor": 1, "mobile": False})
            time.sleep(0.3)
            data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
            with open(command["screenshot"], "wb") as file:
                file.write(base64.b64decode(data))
            return command["screenshot"]
        if "sleep" in command:
            time.sleep(min(float(command["sleep"]), 5))
            return None
        raise RuntimeError(f"unknown command {command!r}")

    def close(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        shutil.rmtree(self.profile, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chromium", default=os.environ.get("UNIDIRECTIONAL_CHROMIUM") or "chromium")
    options = parser.parse_args()
    commands = json.load(sys.stdin)
    output = {"results": [], "error": None, "dialogs": 0, "exceptions": []}
    browser = None
    try:
        browser = Browser(options.chromium)
        for command in commands:
            output["results"].append(browser.run(command))
    except Exception as error:  # reported to the test as JSON, with the step it stopped at
        output["error"] = f"command {len(output['results'])}: {error}"
    finally:
        if browser:
            output["dialogs"] = browser.dialogs
            output["exceptions"] = browser.exceptions
            browser.close()
    print(json.dumps(output))


if __name__ == "__main__":
    main()
