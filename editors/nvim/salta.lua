-- salta lsp for Neovim 0.7 (Debian 12), which has vim.lsp.start_client but not vim.lsp.start:
-- `:luafile editors/nvim/salta.lua`, or copy this file to ~/.config/nvim/plugin/.
vim.cmd([[autocmd BufRead,BufNewFile *.sgn setfiletype sgn]])

local client_id = nil

local function attach(buffer)
  if client_id == nil or vim.lsp.get_client_by_id(client_id) == nil then
    client_id = vim.lsp.start_client({
      name = "salta",
      cmd = { "salta", "lsp" },
      root_dir = vim.fn.getcwd(),
    })
  end
  if client_id ~= nil then
    vim.lsp.buf_attach_client(buffer, client_id)
    vim.api.nvim_buf_set_option(buffer, "omnifunc", "v:lua.vim.lsp.omnifunc")
  end
end

vim.api.nvim_create_autocmd("FileType", {
  pattern = "sgn",
  callback = function(args) attach(args.buf) end,
})
