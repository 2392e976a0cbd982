Bclone_2JζΐΌρύ
?MπήΎ