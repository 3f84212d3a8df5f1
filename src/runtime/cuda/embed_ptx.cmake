# embed_ptx.cmake — run by cuda.cmake at build time (cmake -P): turns the PTX file IN into a C
# source OUT defining `const char SYMBOL[]`, NUL-terminated (the driver reads PTX as a C string).
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x..,){16})" "\\1\n" bytes "${bytes}")
file(WRITE ${OUT}.tmp "/* generated from ${IN}; do not edit */\nextern const char ${SYMBOL}[];\nconst char ${SYMBOL}[] = {\n${bytes}0};\n")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
