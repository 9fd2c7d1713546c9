"""One turn, from orders to post: the orders read (:mod:`.orders`), one order checked
(:mod:`.check`), the turn resolved and its post made (:mod:`.run`), the orders taken from the
campaign's thread (:mod:`.thread`) and the thread by its address (:mod:`.address`), the archive
replayed and verified (:mod:`.replay`), turn 0 (:mod:`.zero`) and the turn to come
(:mod:`.upcoming`)."""
