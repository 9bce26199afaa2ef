#ifndef DICTEE_CLLAMA_SHIM_H
#define DICTEE_CLLAMA_SHIM_H
// llama.cpp and ggml (MIT), found through pkg-config `llama`: the build cached by
// Scripts/model/install-server (Scripts/model/llama-pkgconfig writes its llama.pc), or one the
// user installed. Built only when Package.swift finds a llama.pc; only
// Sources/LocalModel/LlamaModel.swift calls into this module.
#include <llama.h>
#endif
