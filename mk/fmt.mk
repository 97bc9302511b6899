# mk/fmt.mk: the formats shared by C and RTL (docs/reference/formats.md "One source"). The X-macro
# tables of cmodel/fmt/mt_formats.h are the one definition; scripts/gen_mt_pkg.c expands them
# into rtl/mt_common_pkg.sv (committed) and tells mk/ni.mk the table word width (--entry-width).
#   make rtl-pkg      regenerate rtl/mt_common_pkg.sv after editing cmodel/fmt/mt_formats.h
#   t-lint-pkg        make lint's package check catches a hand edit of rtl/mt_common_pkg.sv and an
#                     edit of the table that was not regenerated (tb/lint/test_lint_pkg.sh)
GEN_MT_PKG := $(BUILD)/fmt/gen_mt_pkg
$(GEN_MT_PKG): scripts/gen_mt_pkg.c cmodel/fmt/mt_formats.h cmodel/fmt/mt_entry.h cmodel/fmt/mt_entry.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -Wall -Wextra -Werror -Icmodel scripts/gen_mt_pkg.c cmodel/fmt/mt_entry.c -o $@
.PHONY: rtl-pkg
rtl-pkg: $(GEN_MT_PKG)
	$(GEN_MT_PKG) > rtl/mt_common_pkg.sv
t-lint-pkg:
	@scripts/runbench.sh $@ 600 tb/lint/test_lint_pkg.sh
TEST_STEPS += t-lint-pkg
