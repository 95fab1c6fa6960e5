"""The offline pack: a static, bilingual, searchable site written from one build."""
