-- Reference data every deployment needs: the v3/v4 genre sets and the built-in lists.
-- The general set keeps the interface's listing order, where id 16 precedes id 15.
INSERT INTO genres (id, "set", position, name_en) VALUES
  (1, 'general', 1, 'Action & Adventure'),
  (2, 'general', 2, 'Anime'),
  (3, 'general', 3, 'Biographical'),
  (4, 'general', 4, 'Cartoon'),
  (5, 'general', 5, 'Classic & Period'),
  (6, 'general', 6, 'Comedy'),
  (7, 'general', 7, 'Crime'),
  (8, 'general', 8, 'Documentary'),
  (9, 'general', 9, 'Drama'),
  (10, 'general', 10, 'Entertainment'),
  (11, 'general', 11, 'Historical'),
  (12, 'general', 12, 'Horror & Supernatural'),
  (13, 'general', 13, 'Independent'),
  (14, 'general', 14, 'Lifestyle'),
  (16, 'general', 15, 'Live Action'),
  (15, 'general', 16, 'Live Show'),
  (17, 'general', 17, 'Music'),
  (18, 'general', 18, 'Romance'),
  (19, 'general', 19, 'SciFi & Fantasy'),
  (20, 'general', 20, 'Sports'),
  (21, 'general', 21, 'Variety Show'),
  (22, 'general', 22, 'Western'),
  (23, 'music', 1, 'K-Pop'),
  (24, 'music', 2, 'J-Pop'),
  (25, 'music', 3, 'C-Pop'),
  (26, 'music', 4, 'Pop'),
  (27, 'music', 5, 'Rock'),
  (28, 'music', 6, 'Hip Hop & Rap'),
  (29, 'music', 7, 'R&B & Soul'),
  (30, 'music', 8, 'Ballad'),
  (31, 'music', 9, 'Electronic & Dance'),
  (32, 'music', 10, 'Indie'),
  (33, 'music', 11, 'Soundtrack (OST)'),
  (34, 'music', 12, 'Classical & Jazz');
--> statement-breakpoint
INSERT INTO lists (id) VALUES (1), (2), (6);
--> statement-breakpoint
INSERT INTO titles (resource_kind, resource_id, language, text) VALUES
  ('l', 1, 'en', 'Featured'),
  ('l', 2, 'en', 'On Air'),
  ('l', 6, 'en', 'Upcoming');
