#!/usr/bin/env python3
"""Writes a tiny random-weight GGUF model that llama.cpp loads: valid structure, garbage text.

Usage: VENV/bin/python Scripts/model/make-tiny-gguf.py OUT.gguf [--seed N]
(VENV is the path Scripts/model/install-server prints; it holds the PyPI `gguf` package.)

What it is for: tests of dictee's generation path (schema-constrained requests, the retry loop with
feedback, the fallback to the handwritten library) against a real llama.cpp server, without any
downloaded model. With a JSON schema the decoder still produces well-formed JSON; the words are
random.

The model: architecture qwen2, embedding 64, 2 layers, 4 attention heads of 16 (2 KV heads,
grouped-query attention), feed-forward 128 (SwiGLU), context 2048, all tensors f32, about 0.4 MB.
Weights are drawn from a normal distribution with a seeded numpy generator, so the same seed gives
the same file byte for byte.

The tokenizer, built from scratch: byte-level BPE (tokenizer.ggml.model "gpt2", pre-tokenizer
"qwen2"), the 256 byte symbols of GPT-2's bytes-to-unicode table (so any UTF-8 text, French accents
included, tokenizes), a handful of merges for common French and JSON fragments, and the ChatML
control tokens <|endoftext|>, <|im_start|>, <|im_end|> (end of generation: <|im_end|>), with a ChatML
chat template in tokenizer.chat_template.

Key and tensor names come from gguf/constants.py (Keys.*, TENSOR_NAMES for MODEL_ARCH.QWEN2).
numpy shapes are written reversed into GGUF (ggml's ne[0] is the innermost dimension), so a
(rows, cols) array here is a ggml tensor of ne = {cols, rows}.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

try:
    import gguf
except ImportError:  # pragma: no cover - message for people running it with the wrong python
    sys.exit("make-tiny-gguf: the gguf package is missing; run it with the python of the venv "
             "Scripts/model/install-server prints")

ARCH = "qwen2"
N_EMBD = 64
N_LAYER = 2
N_HEAD = 4
N_HEAD_KV = 2
HEAD_DIM = N_EMBD // N_HEAD
N_FF = 128
N_CTX = 2048
ROPE_BASE = 1_000_000.0
RMS_EPS = 1e-6

CONTROL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]

# Pairs of GPT-2 byte symbols ("Ġ" is the space, "Ċ" the newline). Each merge's result is added to
# the vocabulary after the 256 byte symbols, in this order; a merge may use an earlier result.
MERGES = [
    ("Ġ", "l"), ("e", "s"), ("o", "u"), ("Ġ", "d"), ("e", "n"), ("o", "n"), ("a", "n"),
    ("r", "e"), ("Ġl", "e"), ("Ġd", "e"), ("Ġ", "p"), ("Ġ", "a"), ("Ġ", "c"), ("i", "t"),
    ("{", "\""), ("\"", ":"), ("\"", ","), ("Ġ", "\""), ("\"", "]"), ("]", "}"), ("Ġ", "["),
]

# ChatML, as Qwen2 ships it, without the tool-calling branches.
CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{% if loop.first and messages[0]['role'] != 'system' %}"
    "{{ '<|im_start|>system\\nYou are a helpful assistant.<|im_end|>\\n' }}"
    "{% endif %}"
    "{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)


def bytes_to_unicode() -> dict[int, str]:
    """GPT-2's reversible map from the 256 byte values to printable unicode characters."""
    printable = (list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1))
                 + list(range(ord("®"), ord("ÿ") + 1)))
    codes = printable[:]
    extra = 0
    for b in range(256):
        if b not in printable:
            printable.append(b)
            codes.append(256 + extra)
            extra += 1
    return {b: chr(c) for b, c in zip(printable, codes)}


def build_vocab() -> tuple[list[str], list[int], list[str]]:
    """Returns the token texts, their types and the merges ("left right") in rank order."""
    byte_symbols = [bytes_to_unicode()[b] for b in range(256)]
    tokens = list(byte_symbols)
    known = set(tokens)
    merges = []
    for left, right in MERGES:
        if left not in known or right not in known:
            raise ValueError(f"merge {left!r} {right!r} uses a symbol not in the vocabulary")
        merged = left + right
        merges.append(f"{left} {right}")
        if merged not in known:
            tokens.append(merged)
            known.add(merged)
    types = [int(gguf.TokenType.NORMAL)] * len(tokens)
    for text in CONTROL_TOKENS:
        tokens.append(text)
        types.append(int(gguf.TokenType.CONTROL))
    return tokens, types, merges


def tensors(rng: np.random.Generator, n_vocab: int) -> list[tuple[str, np.ndarray]]:
    """The qwen2 tensors, numpy shapes (rows, cols) = ggml ne {cols, rows}."""
    def weight(rows: int, cols: int) -> np.ndarray:
        return (rng.standard_normal((rows, cols)) * (1.0 / np.sqrt(cols))).astype(np.float32)

    def bias(n: int) -> np.ndarray:
        return (rng.standard_normal(n) * 0.02).astype(np.float32)

    def ones(n: int) -> np.ndarray:
        return np.ones(n, dtype=np.float32)

    names = gguf.TENSOR_NAMES
    T = gguf.MODEL_TENSOR
    out = [(names[T.TOKEN_EMBD] + ".weight", weight(n_vocab, N_EMBD))]
    for layer in range(N_LAYER):
        def name(kind: gguf.MODEL_TENSOR, suffix: str) -> str:
            return names[kind].format(bid=layer) + suffix

        out += [
            (name(T.ATTN_NORM, ".weight"), ones(N_EMBD)),
            (name(T.ATTN_Q, ".weight"), weight(N_HEAD * HEAD_DIM, N_EMBD)),
            (name(T.ATTN_Q, ".bias"), bias(N_HEAD * HEAD_DIM)),
            (name(T.ATTN_K, ".weight"), weight(N_HEAD_KV * HEAD_DIM, N_EMBD)),
            (name(T.ATTN_K, ".bias"), bias(N_HEAD_KV * HEAD_DIM)),
            (name(T.ATTN_V, ".weight"), weight(N_HEAD_KV * HEAD_DIM, N_EMBD)),
            (name(T.ATTN_V, ".bias"), bias(N_HEAD_KV * HEAD_DIM)),
            (name(T.ATTN_OUT, ".weight"), weight(N_EMBD, N_HEAD * HEAD_DIM)),
            (name(T.FFN_NORM, ".weight"), ones(N_EMBD)),
            (name(T.FFN_GATE, ".weight"), weight(N_FF, N_EMBD)),
            (name(T.FFN_UP, ".weight"), weight(N_FF, N_EMBD)),
            (name(T.FFN_DOWN, ".weight"), weight(N_EMBD, N_FF)),
        ]
    out += [
        (names[T.OUTPUT_NORM] + ".weight", ones(N_EMBD)),
        (names[T.OUTPUT] + ".weight", weight(n_vocab, N_EMBD)),
    ]
    return out


def write(path: str, seed: int, chat_template: str = CHAT_TEMPLATE) -> None:
    tokens, types, merges = build_vocab()
    n_vocab = len(tokens)
    eos = tokens.index("<|im_end|>")
    endoftext = tokens.index("<|endoftext|>")
    rng = np.random.default_rng(seed)

    temporary = f"{path}.tmp{os.getpid()}"
    writer = gguf.GGUFWriter(temporary, ARCH)
    try:
        writer.add_name(f"dictee tiny random qwen2 (seed {seed})")
        writer.add_description("random weights for tests: valid structure, meaningless text")
        writer.add_file_type(int(gguf.LlamaFileType.ALL_F32))
        writer.add_context_length(N_CTX)
        writer.add_embedding_length(N_EMBD)
        writer.add_block_count(N_LAYER)
        writer.add_feed_forward_length(N_FF)
        writer.add_head_count(N_HEAD)
        writer.add_head_count_kv(N_HEAD_KV)
        writer.add_rope_freq_base(ROPE_BASE)
        writer.add_layer_norm_rms_eps(RMS_EPS)
        writer.add_vocab_size(n_vocab)

        writer.add_tokenizer_model("gpt2")
        writer.add_tokenizer_pre("qwen2")
        writer.add_token_list(tokens)
        writer.add_token_types(types)
        writer.add_token_merges(merges)
        writer.add_bos_token_id(endoftext)
        writer.add_eos_token_id(eos)
        writer.add_eot_token_id(eos)
        writer.add_pad_token_id(endoftext)
        writer.add_add_bos_token(False)
        writer.add_chat_template(chat_template)

        for name, array in tensors(rng, n_vocab):
            writer.add_tensor(name, array)

        writer.write_header_to_file()
        writer.write_kv_data_to_file()
        writer.write_tensors_to_file()
        writer.close()
        os.replace(temporary, path)
    except BaseException:
        writer.close()
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="make-tiny-gguf.py",
        description="Write a tiny random-weight qwen2 GGUF (about 0.4 MB) for tests.",
        epilog="example: \"$VENV/bin/python\" Scripts/model/make-tiny-gguf.py /tmp/tiny.gguf --seed 7")
    parser.add_argument("out", metavar="OUT.gguf", help="file to write (replaced atomically)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random weights (default 0)")
    parser.add_argument("--chat-template", default=CHAT_TEMPLATE,
                        help="the tokenizer.chat_template to write instead of ChatML (tests of a template llama.cpp does not know)")
    args = parser.parse_args(argv)
    try:
        write(args.out, args.seed, args.chat_template)
    except OSError as error:
        print(f"make-tiny-gguf: {error}", file=sys.stderr)
        return 73
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
