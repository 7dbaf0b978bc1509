"""Test helpers for search: a deterministic hashing embedder and small stores filled by code.

``HashEmbedder`` implements the real ``Embedder`` interface (bag of stemmed
words hashed into 64 dimensions, unit length), so the real vec0 table, cache
and fusion run on it; it is a test fake only and never ships.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from shelfwise.compiler.index.embedders import Embedder
from shelfwise.compiler.store.records import Converted, Element
from shelfwise.compiler.ingest.sections import build_sections
from shelfwise.compiler.store.store import Store

_WORD = re.compile(r"[a-z0-9]+")


class HashEmbedder(Embedder):
    """Words hashed into ``dimensions`` buckets (a crude stem: first 5 letters); counts calls and texts."""

    def __init__(self, dimensions: int = 64, window_tokens: int = 64, model_id: str = "test:hash"):
        self.dimensions = dimensions
        self.window_tokens = window_tokens
        self.model_id = model_id
        self.texts_embedded: list[str] = []

    def count_tokens(self, text: str) -> int:
        return len(text.split()) + 2

    def embed_batch(self, texts: list[str]) -> list[list[float]]:
        self.texts_embedded.extend(texts)
        vectors = []
        for text in texts:
            vector = [0.0] * self.dimensions
            for word in _WORD.findall(text.lower()):
                bucket = int(hashlib.md5(word[:5].encode()).hexdigest(), 16) % self.dimensions
                vector[bucket] += 1.0
            norm = math.sqrt(sum(x * x for x in vector)) or 1.0
            vectors.append([x / norm for x in vector])
        return vectors


def put_doc(store: Store, path: str, title: str, elements: list[Element]) -> str:
    """Store one document built from ``elements`` (real build_sections); returns its doc id."""
    doc_id = re.sub(r"[^a-z0-9]+", "-", path.lower()).strip("-")
    converted = Converted(title=title, elements=elements, reader="test", reader_version="1")
    sections, figures = build_sections(doc_id, converted)
    row = {
        "doc_id": doc_id, "path": path, "title": title, "format": "text", "content_hash": hashlib.sha256(repr(elements).encode()).hexdigest(),
        "size": 1, "reader": "test", "reader_version": "1", "settings_hash": "x", "pages": 0,
        "n_sections": len(sections), "n_tables": 0, "n_figures": len(figures), "seconds": 0.0,
    }  # fmt: skip
    store.put_document(row, sections, figures)
    return doc_id


def h(text: str, level: int = 1) -> Element:
    return Element(kind="heading", text=text, level=level)


def p(text: str) -> Element:
    return Element(kind="paragraph", text=text)


def fig(caption: str) -> Element:
    return Element(kind="figure", text=caption)


def oauth_like_shelf(store: Store) -> dict[str, str]:
    """Three small documents shaped like the oauth shelf; returns doc ids by path."""
    ids = {}
    ids["rfc6749.txt"] = put_doc(store, "rfc6749.txt", "The OAuth 2.0 Authorization Framework", [
        h("1. Introduction"), p("OAuth lets a client obtain limited access to a protected resource."),
        h("1.4. Access Token", 2), p("Access tokens are credentials used to access protected resources. "
                                     "An access token is a string representing an authorization issued to the client."),
        h("4.1. Authorization Code Grant"), fig("Figure 3: Authorization Code Flow between client and authorization server"),
        p("The authorization code grant type is used to obtain both access tokens and refresh tokens."),
        h("4.1.2. Authorization Response", 2), p("The authorization code MUST expire shortly after it is issued. "
                                                 "A maximum authorization code lifetime of 10 minutes is RECOMMENDED."),
    ])  # fmt: skip
    ids["rfc6750.txt"] = put_doc(store, "rfc6750.txt", "The OAuth 2.0 Authorization Framework: Bearer Token Usage", [
        h("1.2. Terminology"), p("Bearer Token: a security token with the property that any party in possession of "
                                 "the token (a bearer) can use the token in any way that any other party in possession of it can."),
        h("2.3. URI Query Parameter"), p("Clients SHOULD NOT send the bearer token in the URI query string; "
                                         "the Cache-Control header MUST contain the no-store option."),
    ])  # fmt: skip
    ids["rfc7519.txt"] = put_doc(store, "rfc7519.txt", "JSON Web Token (JWT)", [
        h("4.1.4. \"exp\" (Expiration Time) Claim"), p("The exp claim identifies the expiration time on or after which "
                                                        "the JWT MUST NOT be accepted for processing."),
        h("4.1.3. \"aud\" (Audience) Claim"), p("The aud claim identifies the recipients that the JWT is intended for."),
    ])  # fmt: skip
    return ids


@contextmanager
def searching(store: Store, tmp_path: Path) -> Iterator:
    """A searcher over ``store``, indexed under ``tmp_path/lexical`` with the hash embedder; searcher and store are
    closed afterwards."""
    from shelfwise.compiler.index.indexes import index_shelf
    from shelfwise.compiler.search.search import ShelfSearcher

    embedder = HashEmbedder()
    index_shelf(store, tmp_path / "lexical", embedder, [d["doc_id"] for d in store.documents()], [])
    searcher = ShelfSearcher(store, tmp_path / "lexical", embedder)
    try:
        yield searcher
    finally:
        searcher.close()
        store.close()
