#!/usr/bin/env bash
# test_perf_share.sh: scripts/perf_share.py against hand-derived shares. A synthetic node
# model (two DepSet files, one function name in both) and a perf report: function A (40 %)
# names the router on 3 lines and mt_ni_deps on 1; function B (20 %, two bodies taken
# together) names the engines on 2 lines and the router on 2; C (10 %) names no part;
# mt_node_dpi_step 10 %, main 10 %, mt_ni_step 5 %, memcpy 5 %. Expected: router 40*3/4 +
# 20*2/4 = 40 %, deps 10 %, engines 10 %, scheduling 10 %, DPI 10 %, harness 10 %, C model
# 5 %, other 5 %. A directory without the node's C++ and a partial report are refused.
set -u
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ps=scripts/perf_share.py
d=$tmp/node
mkdir -p "$d"
cat >"$d/Vmt_node___024root__DepSet_h1__0.cpp" <<'C'
VL_INLINE_OPT void Vmt_node___024root___nba_sequent__TOP__0(Vmt_node___024root* vlSelf) {
    x = vlSelf->mt_node_cfg__DOT__u_node__DOT__u_router__DOT__a;
    x = vlSelf->mt_node_cfg__DOT__u_node__DOT__u_router__DOT__b;
    x = vlSelf->mt_node_cfg__DOT__u_node__DOT__u_router__DOT__c;
    x = vlSelf->mt_node_cfg__DOT__u_node__DOT__u_ni__DOT__u_deps__DOT__rv_q;
}
void Vmt_node___024root___nba_comb__TOP__1(Vmt_node___024root* vlSelf) {
    y = vlSelf->mt_node_cfg__DOT__u_node__DOT__u_ni__DOT__g_rx__BRA__0__KET____DOT__u_depktz__DOT__st_q;
    y = vlSelf->mt_node_cfg__DOT__u_node__DOT__u_router__DOT__d;
}
void Vmt_node___024root___eval_act(Vmt_node___024root* vlSelf) {
    z = 1;
}
C
cat >"$d/Vmt_node___024root__DepSet_h2__0.cpp" <<'C'
void Vmt_node___024root___nba_comb__TOP__1(Vmt_node___024root* vlSelf) {
    y = vlSelf->mt_node_cfg__DOT__u_node__DOT__u_ni__DOT__g_rx__BRA__1__KET____DOT__u_depktz__DOT__st_q;
    y = vlSelf->mt_node_cfg__DOT__u_node__DOT__u_router__DOT__e;
}
C
cat >"$tmp/r.txt" <<'R'
# Samples: 1000
    40.00%  [.] Vmt_node___024root___nba_sequent__TOP__0
    20.00%  [.] Vmt_node___024root___nba_comb__TOP__1
    10.00%  [.] Vmt_node___024root___eval_act
    10.00%  [.] mt_node_dpi_step
    10.00%  [.] main
     5.00%  [.] mt_ni_step
     5.00%  [.] memcpy
R
out=$(python3 "$ps" "$d" "$tmp/r.txt")
want() { if grep -qF -- "$1" <<<"$out"; then ok; else bad "want '$1' in: $out"; fi; }
want '| router (`mt_router`: input VCs and their buffers, allocation, crossbar) | 40.0 % |'
want '| dependency and chain state (`mt_ni_deps`, `mt_ni_chain`) | 10.0 % |'
want '| receive engines (`mt_ni_depktz`) | 10.0 % |'
want "| Verilator's scheduling of the node (statements naming no part) | 10.0 % |"
want '| the DPI step (`mt_node_dpi_step`: the node'"'"'s inputs in, `eval()`, its outputs out) | 10.0 % |'
want "| the harness's loop and the memories (\`main\`, \`take\`, \`mt_mem_*\`) | 10.0 % |"
want "| the C model's run alone afterwards (\`mt_*_step\`, \`mt_net_*\`) | 5.0 % |"
want '| other (C library, kernel) | 5.0 % |'
# refused: no node C++; a report that is not the whole one
python3 "$ps" "$tmp" "$tmp/r.txt" >/dev/null 2>"$tmp/e1"; rc=$?
if [[ $rc -eq 2 ]] && grep -q "not a node build directory" "$tmp/e1"; then ok; else bad "no DepSet: rc $rc $(cat "$tmp/e1")"; fi
head -2 "$tmp/r.txt" >"$tmp/p.txt"
python3 "$ps" "$d" "$tmp/p.txt" >/dev/null 2>"$tmp/e2"; rc=$?
if [[ $rc -eq 2 ]] && grep -q "sum to 40.0 %" "$tmp/e2"; then ok; else bad "partial report: rc $rc $(cat "$tmp/e2")"; fi
echo "RESULT perf_share pass=$pass fail=$fail"
[[ $fail -eq 0 ]]
