BdivJk╞
╩Бо ╬╙DG╬5Dф╫Х.$=PBА=