-- A result may say why in words when its reason alone does not: a bot whose
-- outside engine kept failing resigns, and the record says how it failed.
ALTER TABLE results ADD COLUMN detail TEXT;
