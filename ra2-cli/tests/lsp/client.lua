-- A real LSP client for `ra2 lsp`: Neovim (0.7 and later), headless, started by
-- ra2-cli/tests/lsp.rs as `nvim --headless -u NONE -i NONE -c 'luafile client.lua'`. It opens a
-- manifest, edits it, applies a quick fix and source.fixAll.ra2, saves a chart template, and
-- writes what it saw (diagnostics as published, buffer texts) to $RA2_LSP_OUT as JSON for the
-- Rust test to compare with `ra2 lint`. Settings come from the environment: RA2_BIN (the ra2
-- binary), RA2_LSP_ROOT (the workspace), RA2_LSP_MANIFEST, RA2_LSP_EDITED (the text the
-- manifest is edited to), RA2_LSP_TEMPLATE (a chart template), RA2_HELM (optional).

local env = vim.env
local out = {}
local published = {}

local function text_of(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n') .. '\n'
end

local function wait_for(what, cond)
  if not vim.wait(30000, cond, 20) then
    error('timed out waiting for ' .. what)
  end
end

-- The diagnostics published for `uri` at `version` (any version when nil), once they come.
local function diagnostics_of(uri, version)
  local found
  wait_for('diagnostics of ' .. uri .. ' version ' .. tostring(version), function()
    for i = #published, 1, -1 do
      local p = published[i]
      if p.uri == uri and (version == nil or p.version == version) then
        found = p
        return true
      end
    end
    return false
  end)
  return found.diagnostics
end

local function main()
  local client_id = vim.lsp.start_client({
    name = 'ra2',
    cmd = { env.RA2_BIN, 'lsp' },
    root_dir = env.RA2_LSP_ROOT,
    init_options = { helm = env.RA2_HELM },
    handlers = {
      ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
        table.insert(published, result)
        vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
      end,
    },
  })
  assert(client_id, 'ra2 lsp did not start')

  -- Open the manifest: its diagnostics.
  vim.cmd('edit ' .. vim.fn.fnameescape(env.RA2_LSP_MANIFEST))
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, client_id)
  local uri = vim.uri_from_bufnr(buf)
  out.opened = diagnostics_of(uri, nil)
  local client = vim.lsp.get_client_by_id(client_id)
  out.offset_encoding = client.offset_encoding

  -- Hover on the first diagnostic: the catalogue's text.
  local first = out.opened[1]
  local hover = client.request_sync('textDocument/hover', {
    textDocument = { uri = uri },
    position = first.range.start,
  }, 10000, buf)
  out.hover = hover and hover.result and hover.result.contents.value or ''

  -- Edit it: the whole text replaced, as a paste would.
  local edited = vim.fn.readfile(env.RA2_LSP_EDITED)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, edited)
  out.edited = diagnostics_of(uri, vim.lsp.util.buf_versions[buf])

  -- A quick fix: the safe fix of the first privilege-escalation finding.
  local target
  for _, d in ipairs(out.edited) do
    if d.code == 'ra2.app.003/privilege-escalation' then
      target = d
      break
    end
  end
  assert(target, 'no privilege-escalation diagnostic to fix')
  local answer = client.request_sync('textDocument/codeAction', {
    textDocument = { uri = uri },
    range = target.range,
    context = { diagnostics = { target } },
  }, 20000, buf)
  assert(answer and answer.result, 'no code actions: ' .. vim.inspect(answer))
  out.actions = {}
  local quick
  for _, a in ipairs(answer.result) do
    table.insert(out.actions, { title = a.title, kind = a.kind })
    if not quick and a.kind == 'quickfix' and a.diagnostics
      and a.diagnostics[1].code == target.code
      and a.diagnostics[1].range.start.line == target.range.start.line then
      quick = a
    end
  end
  assert(quick, 'no quick fix for ' .. vim.inspect(target))
  vim.lsp.util.apply_workspace_edit(quick.edit, client.offset_encoding)
  out.quickfixed = text_of(buf)
  out.after_quickfix = diagnostics_of(uri, vim.lsp.util.buf_versions[buf])

  -- source.fixAll.ra2: every safe fix.
  local all = client.request_sync('textDocument/codeAction', {
    textDocument = { uri = uri },
    range = { start = { line = 0, character = 0 }, ['end'] = { line = 0, character = 0 } },
    context = { diagnostics = {}, only = { 'source.fixAll' } },
  }, 20000, buf)
  assert(all and all.result and all.result[1], 'no source.fixAll action: ' .. vim.inspect(all))
  out.fix_all_kind = all.result[1].kind
  vim.lsp.util.apply_workspace_edit(all.result[1].edit, client.offset_encoding)
  out.all_fixed = text_of(buf)
  out.after_fix_all = diagnostics_of(uri, vim.lsp.util.buf_versions[buf])

  -- A chart template: nothing while it is edited (never linted as plain YAML), its chart's
  -- findings on its own lines once saved.
  vim.cmd('edit ' .. vim.fn.fnameescape(env.RA2_LSP_TEMPLATE))
  local tbuf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(tbuf, client_id)
  local turi = vim.uri_from_bufnr(tbuf)
  vim.wait(500, function() return false end, 20)
  out.template_before_save = 0
  for _, p in ipairs(published) do
    if p.uri == turi then
      out.template_before_save = out.template_before_save + 1
    end
  end
  if env.RA2_HELM and env.RA2_HELM ~= '' then
    vim.cmd('write')
    out.template = diagnostics_of(turi, nil)
    local t = out.template[1]
    if t then
      local answer = client.request_sync('textDocument/hover', {
        textDocument = { uri = turi },
        position = t.range.start,
      }, 10000, tbuf)
      out.template_hover = answer and answer.result and answer.result.contents.value or ''
    end
  end

  vim.lsp.stop_client(client_id)
end

local ok, err = pcall(main)
if not ok then
  out.error = tostring(err)
end
vim.fn.writefile({ vim.fn.json_encode(out) }, env.RA2_LSP_OUT)
vim.cmd(ok and 'qa!' or 'cq!')
