-- The walk-in waiting list takes its ids from the shard's own range, as every AUTOINCREMENT table does (0032).
CREATE TRIGGER `walk_ins_id_in_range` AFTER INSERT ON `walk_ins` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `id_range` r WHERE r.`copying` = 0 AND NEW.`id` NOT BETWEEN r.`base` + 1 AND r.`base` + 1000000000000)
BEGIN
  SELECT RAISE(ABORT, 'id outside the shard''s range: walk_ins');
END;
