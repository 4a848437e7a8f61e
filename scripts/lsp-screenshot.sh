#!/usr/bin/env bash
# docs/lsp-neovim.png: Neovim (Debian's, under tmux) with `salta lsp` attached through
# editors/nvim/salta.lua, captured at three moments of one session (the diagnostic of a slip,
# the hover on a move, the completion list) and drawn by scripts/ansi-to-png.py (Pillow).
# Needs nvim, tmux and python3 with Pillow. SALTA_BIN_DIR names the folder of the salta binary
# to use (default: target/release, built first).
set -euo pipefail
cd "$(dirname "$0")/.."
bin_dir=${SALTA_BIN_DIR:-}
if [ -z "$bin_dir" ]; then
  cargo build --release --quiet
  bin_dir=$PWD/target/release
fi
work=$(mktemp -d)
trap 'tmux kill-session -t salta-shot 2>/dev/null || true; rm -rf "$work"' EXIT
cat > "$work/game.sgn" <<'SGN'
[Event "Übungspartie"]
[Site "Jüterbog"]
[Green "Krone"]
[Red "Grotewold"]
[Result "*"]

1. 33-42 83-73 2. 22-33 82-72 3. 31-41 73-63 4. 21-31 81-71 5. 11-21 84-75
6. 33-43 94-83 7. 41-52 83-74 8. 53-44 92-82 9. 32-41 71-61 10. 52:71 75-64
*
SGN
cat > "$work/init.lua" <<LUA
vim.env.PATH = "$bin_dir:" .. vim.env.PATH
vim.o.termguicolors = false
vim.o.number = true
vim.o.signcolumn = "yes"
vim.o.completeopt = "menuone,noinsert"
vim.o.pumheight = 12
vim.cmd("syntax off")
-- Floats and the completion menu in grey rather than 0.7's magenta, whose red text is hard to read.
vim.cmd("highlight NormalFloat ctermbg=236 ctermfg=255")
vim.cmd("highlight Pmenu ctermbg=236 ctermfg=255")
vim.cmd("highlight PmenuSel ctermbg=24 ctermfg=255")
vim.cmd("luafile $PWD/editors/nvim/salta.lua")
vim.api.nvim_set_keymap("n", "K", "<cmd>lua vim.lsp.buf.hover()<CR>", { noremap = true })
LUA
shot() { tmux capture-pane -e -p -t salta-shot > "$work/$1.txt"; }
tmux new-session -d -s salta-shot -x 120 -y 40 "nvim -u $work/init.lua $work/game.sgn"
sleep 4
# 1. The slip's diagnostic, opened in full under the cursor.
tmux send-keys -t salta-shot '8G' '0' '/53-44' Enter ':lua vim.diagnostic.open_float()' Enter
sleep 2
shot diagnostic
# 2. The hover on 7. 41-52.
tmux send-keys -t salta-shot Escape '8G0' '/41-52' Enter 'K'
sleep 2
shot hover
# 3. Completion after 10... 75-64: Green's moves, compulsory jumps first.
tmux send-keys -t salta-shot Escape ':8' Enter 'A 11. ' C-x C-o
sleep 2
shot completion
tmux send-keys -t salta-shot Escape ':qa!' Enter
# Debian's python3-pil serves the system's Python, which a python3 earlier on PATH may not be.
python=python3
if ! python3 -c 'import PIL' 2>/dev/null && /usr/bin/python3 -c 'import PIL' 2>/dev/null; then
  python=/usr/bin/python3
fi
"$python" scripts/ansi-to-png.py docs/lsp-neovim.png \
  "The slip 8. 53-44: salta's diagnostic with its reading (vim.diagnostic.open_float)" "$work/diagnostic.txt" \
  "Hover (K) on 7. 41-52: the position after it, who moves, what was compulsory, the notations" "$work/hover.txt" \
  "Completion (<C-x><C-o>) after '11. ': Green's legal moves, in the record's notation" "$work/completion.txt"
echo "docs/lsp-neovim.png"
