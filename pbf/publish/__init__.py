"""What the public sees beyond the thread: the public copy of a campaign (:mod:`.export`) and the
static site built from it (:mod:`.site`)."""
