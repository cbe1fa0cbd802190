"""The Games screen: the kept games listed, to replay, review, continue or delete
(``games_scene``), and its layout (``games_layout``)."""
