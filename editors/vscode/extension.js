// Starts `salta lsp` for SGN records: the whole of the extension.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate() {
  const command = vscode.workspace.getConfiguration("salta").get("command") || "salta";
  client = new LanguageClient(
    "salta",
    "salta lsp",
    { command, args: ["lsp"] },
    { documentSelector: [{ language: "sgn" }] }
  );
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
