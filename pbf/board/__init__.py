"""The thread on the board: reading a ``.dat``, a したらば dat or a copied read.cgi page
(:mod:`.thread`), fetching it by its address (:mod:`.fetch`), which posts are orders — markers,
trips, the window, deadlines, commit–reveal (:mod:`.markers`, :mod:`.forum`) — the orders file
(:mod:`.orders`), the orders as written and where each came from (:mod:`.sources`), and fitting a
post to the board (:mod:`.boardfit`). Nothing here knows a campaign folder."""
