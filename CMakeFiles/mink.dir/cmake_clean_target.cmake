file(REMOVE_RECURSE
  "libmink.a"
)
