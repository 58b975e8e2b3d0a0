// The C interface of runtime/regex.h over RE2 (the only C++ in the runtime).
// Every entry point catches what RE2 or std::string may throw (bad_alloc):
// C callers see NULL / 0 instead.
#include "runtime/regex.h"

#include <re2/re2.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

struct mt_regex {
  re2::RE2* re;
};

namespace {

// A malloc'd copy the C side frees with free().
char* c_copy(const std::string& s, size_t* len) {
  char* p = static_cast<char*>(std::malloc(s.size() + 1));
  if (!p) return nullptr;
  std::memcpy(p, s.data(), s.size());
  p[s.size()] = 0;
  if (len) *len = s.size();
  return p;
}

}  // namespace

extern "C" mt_regex* mt_regex_new(const char* pattern, size_t len) {
  try {
    re2::RE2::Options opts;
    // TensorFlow reports the error in the op's status; RE2's own logging
    // to stderr would only repeat it.
    opts.set_log_errors(false);
    mt_regex* r = new mt_regex;
    r->re = new (std::nothrow) re2::RE2(re2::StringPiece(pattern, len), opts);
    if (!r->re) {
      delete r;
      return nullptr;
    }
    return r;
  } catch (...) {
    return nullptr;
  }
}

extern "C" void mt_regex_free(mt_regex* re) {
  if (!re) return;
  delete re->re;
  delete re;
}

extern "C" int mt_regex_ok(const mt_regex* re) { return re->re->ok() ? 1 : 0; }

extern "C" const char* mt_regex_error(const mt_regex* re) { return re->re->error().c_str(); }

extern "C" int mt_regex_full_match(const mt_regex* re, const char* s, size_t n) {
  try {
    return re2::RE2::FullMatch(re2::StringPiece(s, n), *re->re) ? 1 : 0;
  } catch (...) {
    return 0;
  }
}

extern "C" int mt_regex_replace(const mt_regex* re, const char* s, size_t n,
                                const char* rewrite, size_t rn, int global, char** out,
                                size_t* out_len) {
  *out = nullptr;
  try {
    std::string buf(s, n);
    re2::StringPiece rw(rewrite, rn);
    if (global)
      re2::RE2::GlobalReplace(&buf, *re->re, rw);
    else
      re2::RE2::Replace(&buf, *re->re, rw);
    *out = c_copy(buf, out_len);
    return *out != nullptr;
  } catch (...) {
    return 0;
  }
}
