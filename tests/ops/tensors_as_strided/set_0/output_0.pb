B
as_stridedJ5Ï;@)œ?d›r?Qô>