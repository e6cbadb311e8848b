-- The store's tables and indexes as sqlite-utils 4.2 made them (before issue 30 item 3).
CREATE TABLE "meta" (
   "key" TEXT PRIMARY KEY,
   "value" TEXT
);
CREATE TABLE "posts" (
   "post_id" INTEGER PRIMARY KEY,
   "topic_id" INTEGER,
   "author" TEXT,
   "author_id" INTEGER,
   "posted_at" TEXT,
   "page" INTEGER,
   "position" INTEGER,
   "body_html" TEXT,
   "body_text" TEXT,
   "body_hash" TEXT,
   "edit_editor" TEXT,
   "edit_at" TEXT,
   "edit_count" INTEGER,
   "first_seen" TEXT,
   "last_seen" TEXT,
   "missing_since" TEXT
);
CREATE TABLE "post_revisions" (
   "post_id" INTEGER,
   "body_hash" TEXT,
   "body_html" TEXT,
   "body_text" TEXT,
   "edit_count" INTEGER,
   "first_seen" TEXT,
   PRIMARY KEY ("post_id", "body_hash")
);
CREATE TABLE "pages" (
   "topic_id" INTEGER,
   "page" INTEGER,
   "url" TEXT,
   "fetched_at" TEXT,
   "post_ids" TEXT,
   "content_hash" TEXT,
   "total_pages" INTEGER,
   "per_page" INTEGER,
   PRIMARY KEY ("topic_id", "page")
);
CREATE TABLE "pms" (
   "pm_id" INTEGER PRIMARY KEY,
   "folder" TEXT,
   "sender" TEXT,
   "sender_id" INTEGER,
   "recipients" TEXT,
   "sent_at" TEXT,
   "subject" TEXT,
   "body_html" TEXT,
   "body_text" TEXT,
   "fetched_at" TEXT
);
CREATE TABLE "overrides" (
   "id" INTEGER PRIMARY KEY,
   "kind" TEXT,
   "subject" TEXT,
   "payload" TEXT,
   "reason" TEXT,
   "recorded_at" TEXT
);
CREATE TABLE "results" (
   "phase" TEXT,
   "number" INTEGER,
   "payload" TEXT,
   "recorded_at" TEXT,
   PRIMARY KEY ("phase", "number")
);
CREATE TABLE "sent" (
   "key" TEXT PRIMARY KEY,
   "kind" TEXT,
   "recipient" TEXT,
   "body" TEXT,
   "forum_id" INTEGER,
   "sent_at" TEXT
);
CREATE INDEX "idx_posts_topic_id_posted_at_post_id"
    ON "posts" ("topic_id", "posted_at", "post_id");
CREATE INDEX "idx_posts_posted_at_post_id"
    ON "posts" ("posted_at", "post_id");
CREATE INDEX "idx_pms_sent_at"
    ON "pms" ("sent_at");
CREATE INDEX "idx_overrides_kind"
    ON "overrides" ("kind");
