// The ra2 extension only starts `ra2 lsp` (the language server in the ra2 binary) for YAML,
// JSON and Helm files; diagnostics, hover and fixes all come from the server. Changed settings
// take effect when the window is reloaded.
'use strict';

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate() {
  const settings = vscode.workspace.getConfiguration('ra2');
  const command = settings.get('path') || 'ra2';
  const helm = settings.get('helm');
  const documentSelector = ['yaml', 'json', 'helm'].flatMap((language) => [
    { scheme: 'file', language },
    { scheme: 'untitled', language },
  ]);
  client = new LanguageClient(
    'ra2',
    'ra2',
    { command, args: ['lsp'] },
    {
      documentSelector,
      initializationOptions: helm ? { helm } : {},
      // `.ra2.yaml` changes reload the settings.
      synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/.ra2.yaml') },
    },
  );
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
