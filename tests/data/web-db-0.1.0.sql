BEGIN TRANSACTION;
CREATE TABLE events (
	game VARCHAR(32) NOT NULL, 
	n INTEGER NOT NULL, 
	kind VARCHAR(16) NOT NULL, 
	seat INTEGER, 
	text TEXT, 
	words TEXT NOT NULL, 
	words_you TEXT, 
	PRIMARY KEY (game, n), 
	FOREIGN KEY(game) REFERENCES games (id)
);
INSERT INTO "events" VALUES('cb785ff1464831f7',1,'move',0,'2d+4h 6c =6','You makes a multiple build of 6: 4♥ + 2♦ and 6♣','You make a multiple build of 6: 4♥ + 2♦ and 6♣');
INSERT INTO "events" VALUES('cb785ff1464831f7',2,'move',1,'6d x [6c 4h+2d]','Computer takes the multiple 6-build (6♣, 4♥ + 2♦) with the 6♦','You take the multiple 6-build (6♣, 4♥ + 2♦) with the 6♦');
INSERT INTO "events" VALUES('cb785ff1464831f7',3,'move',0,'6h','You trails the 6♥','You trail the 6♥');
INSERT INTO "events" VALUES('cb785ff1464831f7',4,'move',1,'8h x 8c','Computer takes 8♣ with the 8♥','You take 8♣ with the 8♥');
INSERT INTO "events" VALUES('cb785ff1464831f7',5,'move',0,'Qc','You trails the Q♣','You trail the Q♣');
INSERT INTO "events" VALUES('cb785ff1464831f7',6,'move',1,'Jc','Computer trails the J♣','You trail the J♣');
CREATE TABLE games (
	id VARCHAR(32) NOT NULL, 
	rules VARCHAR(32) NOT NULL, 
	players INTEGER NOT NULL, 
	names TEXT NOT NULL, 
	mode VARCHAR(16) NOT NULL, 
	level VARCHAR(16) NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	public BOOLEAN NOT NULL, 
	invite VARCHAR(64), 
	creator_seat INTEGER NOT NULL, 
	version INTEGER NOT NULL, 
	record TEXT NOT NULL, 
	winner INTEGER, 
	rematch VARCHAR(32), 
	created DATETIME NOT NULL, 
	updated DATETIME NOT NULL, 
	PRIMARY KEY (id)
);
INSERT INTO "games" VALUES('cb785ff1464831f7','casino',2,'["You", "Computer"]','computer','beginner','playing',0,NULL,0,6,'casino-record/1
rules casino
seed none
first-dealer 1
names You Computer
players human beginner
table hints=on takebacks=on
round 1 dealer 1
deck Kc 6h 6c 9d 8h 6d Qc 2d 4h 8c 4c Jc Kd 7c 4d Ts 9c Js 3d 4s Ah Jh 2s Qh Th 5h 3h Tc 2c Jd 9h 7s Kh 2h Qs Qd As Ks Ad 8d 8s 6s 7d 5c 3c 9s 3s Ac 5s Td 5d 7h
move 0 2d+4h 6c =6
move 1 6d x [6c 4h+2d]
move 0 6h
move 1 8h x 8c
move 0 Qc
move 1 Jc
end
',NULL,NULL,'2026-12-01 18:26:19.816376','2026-12-01 18:26:20.192589');
INSERT INTO "games" VALUES('508171ceab44b1f0','kasino',2,'["Ann", "Player 2"]','friends','medium','waiting',1,'1fuHvuXlE5dtaS0k',0,0,'casino-record/1
rules kasino
seed none
first-dealer 1
names Ann "Player 2"
players human human
table hints=off takebacks=off
round 1 dealer 1
deck Kh Ks Jc Qc 2d 5d Js 7c 6h 4d Jh Ah 7d Qs 3d Th Tc 9s 6s 4h 2c 8d 2h 5s 7h 9h 4s Ac 8c 5h 8h Td 3h 9c 5c 2s Ad 3c Ts 8s Kc As 3s 6c 9d Qh Kd 6d Qd 4c 7s Jd
end
',NULL,NULL,'2026-12-01 18:26:20.184534','2026-12-01 18:26:20.184534');
CREATE TABLE scorepads (
	id VARCHAR(32) NOT NULL, 
	secret VARCHAR(64) NOT NULL, 
	pad TEXT NOT NULL, 
	created DATETIME NOT NULL, 
	updated DATETIME NOT NULL, 
	PRIMARY KEY (id)
);
CREATE TABLE seats (
	game VARCHAR(32) NOT NULL, 
	seat INTEGER NOT NULL, 
	name VARCHAR(64) NOT NULL, 
	token_hash VARCHAR(64), 
	PRIMARY KEY (game, seat), 
	FOREIGN KEY(game) REFERENCES games (id)
);
INSERT INTO "seats" VALUES('cb785ff1464831f7',0,'You','9c28a8c098823d61bd05f672786436a0a911d87db09e7a4a55cae048f1d6a3d0');
INSERT INTO "seats" VALUES('508171ceab44b1f0',0,'Ann','9c28a8c098823d61bd05f672786436a0a911d87db09e7a4a55cae048f1d6a3d0');
INSERT INTO "seats" VALUES('508171ceab44b1f0',1,'Player 2',NULL);
CREATE INDEX ix_games_status ON games (status);
CREATE INDEX ix_games_created ON games (created);
CREATE INDEX ix_seats_token_hash ON seats (token_hash);
COMMIT;
