# Compiler warnings for every rewind target: loud, and errors unless REWIND_WERROR is off.
function(rewind_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
    $<$<BOOL:${REWIND_WERROR}>:-Werror>)
endfunction()
