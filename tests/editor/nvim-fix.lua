-- Driven by tests/lsp_editor.rs: Neovim (0.7's client API) opens a record with a slip, waits for
-- salta's diagnostic, applies the preferred code action, saves and quits. What it saw goes to
-- the file named by SALTA_REPORT; a failure quits with an error code.
local bin = os.getenv("SALTA_BIN")
local record = os.getenv("SALTA_RECORD")
local report = io.open(os.getenv("SALTA_REPORT"), "w")

local function say(line)
  report:write(line .. "\n")
  report:flush()
end

local function fail(message)
  say("FAIL " .. message)
  report:close()
  vim.cmd("cquit 1")
end

vim.cmd("edit " .. vim.fn.fnameescape(record))
local buf = vim.api.nvim_get_current_buf()
local id = vim.lsp.start_client({
  name = "salta",
  cmd = { bin, "lsp" },
  root_dir = vim.fn.getcwd(),
  init_options = { readingsDelayMs = 0 },
})
if id == nil then
  fail("the server did not start")
end
vim.lsp.buf_attach_client(buf, id)
local client = vim.lsp.get_client_by_id(id)

if not vim.wait(60000, function() return #vim.diagnostic.get(buf) > 0 end, 20) then
  fail("no diagnostics within a minute")
end
local diagnostic = vim.diagnostic.get(buf)[1]
say("diagnostic " .. tostring(diagnostic.code) .. ": " .. diagnostic.message:gsub("\n", " | "))
say("encoding " .. tostring(client.offset_encoding))

-- vim.diagnostic counts columns in bytes: the range is made again in the agreed encoding.
local params = vim.lsp.util.make_given_range_params(
  { diagnostic.lnum + 1, diagnostic.col },
  { diagnostic.end_lnum + 1, diagnostic.end_col },
  buf,
  client.offset_encoding
)
say("range " .. vim.inspect(params.range):gsub("%s+", " "))
local lsp_diagnostic = (diagnostic.user_data and diagnostic.user_data.lsp) or {}
lsp_diagnostic.range = params.range
lsp_diagnostic.message = lsp_diagnostic.message or diagnostic.message
params.context = { diagnostics = { lsp_diagnostic } }
local response = client.request_sync("textDocument/codeAction", params, 60000, buf)
if response == nil or response.err ~= nil or response.result == nil then
  fail("no answer to codeAction: " .. vim.inspect(response))
end
local preferred = nil
for _, action in ipairs(response.result) do
  if action.isPreferred then
    preferred = action
  end
end
if preferred == nil then
  fail("no preferred action among " .. #response.result)
end
say("action " .. preferred.title)
vim.lsp.util.apply_workspace_edit(preferred.edit, client.offset_encoding)
vim.cmd("write")
if not vim.wait(60000, function() return #vim.diagnostic.get(buf) == 0 end, 20) then
  fail("the diagnostics did not clear after the fix")
end
say("cleared")
report:close()
vim.lsp.stop_client(id)
vim.cmd("qall!")
